import Foundation
import StratusModel

extension CKDatabase {
    /// Operations CloudKit Web Services takes in one records/modify (a non-atomic batch is split to fit).
    static let operationsPerRequest = 200
    /// Items CloudKit's framework takes in one modify (`CKModifyRecordsOperation`'s limit).
    static let itemsPerModify = ServiceLimits.frameworkOperationsPerModify

    /// Saves and deletes records: one records/modify per zone (saves, then deletes), atomic per
    /// zone when `atomically` (a failed item fails the zone's others with `batchRequestFailed`).
    /// Assets in the saved fields are uploaded first, those the server holds already not again.
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
    ) async throws -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]) {
        try await modifyRecords(saving: recordsToSave, deleting: recordIDsToDelete, savePolicy: savePolicy, atomically: atomically, clientChangeTokenData: nil)
    }

    /// ``modifyRecords(saving:deleting:savePolicy:atomically:)`` with the app's client change
    /// token (``CKModifyRecordsOperation/clientChangeTokenData``): the server keeps it for this
    /// device in each zone that takes the modify.
    func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy, atomically: Bool, clientChangeTokenData: Data?
    ) async throws -> (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>]) {
        guard recordsToSave.count + recordIDsToDelete.count <= Self.itemsPerModify else {
            throw CKError(.limitExceeded, "\(recordsToSave.count + recordIDsToDelete.count) items in one modify: at most \(Self.itemsPerModify); split the batch")
        }
        var results = ModifyResults()
        let zones = Self.byZone(recordsToSave.map(\.recordID) + recordIDsToDelete).map(\.0)
        for (position, zoneID) in zones.enumerated() {
            let saves = recordsToSave.filter { $0.recordID.zoneID == zoneID }
            let deletes = recordIDsToDelete.filter { $0.zoneID == zoneID }
            do {
                try await modify(
                    saves, deletes, in: zoneID, savePolicy: savePolicy, atomically: atomically, clientChangeToken: clientChangeTokenData, into: &results
                )
            } catch {
                // What earlier requests committed stands (an app told nothing would send it again);
                // what was not answered fails with the error, marked unanswered.
                guard !results.isEmpty else { throw error }
                let unanswered = CKError.unanswered(error)
                for later in zones[position...] {
                    for record in recordsToSave where record.recordID.zoneID == later && results.saves[record.recordID] == nil {
                        results.saves[record.recordID] = .failure(unanswered)
                    }
                    for id in recordIDsToDelete where id.zoneID == later && results.deletes[id] == nil { results.deletes[id] = .failure(unanswered) }
                }
                break
            }
        }
        return (results.saves, results.deletes)
    }

    /// The answers of a modify, as they arrive.
    struct ModifyResults {
        var saves: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        var deletes: [CKRecord.ID: Result<Void, any Error>] = [:]
        var isEmpty: Bool { saves.isEmpty && deletes.isEmpty }
    }

    /// One zone's saves and deletes: its assets uploaded, then one request (or, non-atomic, one
    /// per 200 operations). The default zone is never atomic (Apple: `isAtomic` has no effect
    /// there). A record whose assets cannot be uploaded (its file is gone, the server refuses
    /// it) fails alone; in an atomic batch the zone's other items then fail with
    /// `batchRequestFailed` and nothing is sent, as CloudKit fails an atomic zone.
    private func modify(
        _ saves: [CKRecord], _ deletes: [CKRecord.ID], in zoneID: CKRecordZone.ID, savePolicy: CKModifyRecordsOperation.RecordSavePolicy,
        atomically: Bool, clientChangeToken: Data?, into results: inout ModifyResults
    ) async throws {
        let atomic = atomically && zoneID.zoneName != CKRecordZone.ID.defaultZoneName
        var files: [String: URL] = [:]
        var saving: [CKRecord] = []
        var operations: [RecordOperation] = []
        for record in saves {
            let uploaded = try await itemLevel { () async throws(CKError) in
                do { return try await AssetFiles.upload(record, all: savePolicy == .allKeys, in: self) } catch { throw CKError.wrapping(error) }
            }
            switch uploaded {
            case .success(let recordFiles):
                files.merge(recordFiles, uniquingKeysWith: { $1 })
                saving.append(record)
                operations.append(record.wireOperation(policy: savePolicy))
            case .failure(let error):
                results.saves[record.recordID] = .failure(error)
                guard atomic else { continue }
                let aborted = CKError(.batchRequestFailed, "another item of the atomic batch failed: \(error.localizedDescription)")
                for other in saves where other.recordID != record.recordID && results.saves[other.recordID] == nil {
                    results.saves[other.recordID] = .failure(aborted)
                }
                for id in deletes { results.deletes[id] = .failure(aborted) }
                return
            }
        }
        let saves = saving
        operations += deletes.map { RecordOperation(.forceDelete, Record(recordName: $0.recordName)) }
        // An atomic batch goes whole, up to the framework's 400 items (the server takes them
        // from a client asking for `frameworkBatches`); a non-atomic one is split within CKWS's
        // per-request limit.
        let chunk = atomic ? max(operations.count, 1) : Self.operationsPerRequest
        // The client change token goes with the zone's last request, and only when every request
        // before it was answered: the server keeps it as "this modify arrived", as Apple's one
        // request would say.
        var earlierAnswered = true
        for start in stride(from: 0, to: operations.count, by: chunk) {
            let range = start..<min(start + chunk, operations.count)
            var request = ModifyRecordsRequest(operations: Array(operations[range]), zoneID: zoneID.wire, atomic: atomic)
            if range.upperBound == operations.count, earlierAnswered { request.clientChangeToken = clientChangeToken?.base64EncodedString() }
            let answers: [RecordResult]
            switch try await itemLevel({ () async throws(CKError) in try await post("records/modify", request, as: RecordsResponse.self) }) {
            case .success(let response): answers = response.records
            case .failure(let error):
                earlierAnswered = false
                for index in range {
                    if index < saves.count { results.saves[saves[index].recordID] = .failure(error) } else { results.deletes[deletes[index - saves.count]] = .failure(error) }
                }
                continue
            }
            for (offset, answer) in answers.enumerated() where offset < range.count {
                let index = range.lowerBound + offset
                if index < saves.count {
                    let record = saves[index]
                    switch answer {
                    case .success(let wire):
                        results.saves[record.recordID] = .success(CKRecord.from(wire: wire, zoneID: zoneID, assets: files))
                    case .failure(let error):
                        results.saves[record.recordID] = .failure(CKError(error, client: record, zoneID: zoneID))
                    }
                } else {
                    let id = deletes[index - saves.count]
                    switch answer {
                    case .success: results.deletes[id] = .success(())
                    case .failure(let error): results.deletes[id] = .failure(CKError(error, client: nil, zoneID: zoneID))
                    }
                }
            }
        }
    }
}

extension CKRecord {
    /// A record the server sent, as the class its type calls for (``CKShare`` for shares).
    static func from(wire: Record, zoneID: CKRecordZone.ID, assets: [String: URL] = [:]) -> CKRecord {
        let recordID = ID(recordName: wire.recordName ?? "", zoneID: CKRecordZone.ID.resolving(wire.zoneID, in: zoneID))
        let type = wire.recordType ?? ""
        let record = ShareNames.isShareType(type) ? CKShare.make(recordType: type, recordID: recordID) : CKRecord(recordType: type, recordID: recordID)
        record.apply(wire: wire, assets: assets)
        return record
    }
}
