import Foundation
import StratusModel

extension CKDatabase {
    /// Operations CloudKit Web Services takes in one records/modify (a non-atomic batch is split to fit).
    static let operationsPerRequest = 200
    /// Items CloudKit's framework takes in one modify (`CKModifyRecordsOperation`'s limit).
    static let itemsPerModify = 400

    /// Saves and deletes records: one records/modify per zone (saves, then deletes), atomic per
    /// zone when `atomically` (a failed item fails the zone's others with `batchRequestFailed`).
    /// Assets in the saved fields are uploaded first, those the server holds already not again.
    public func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID],
        savePolicy: CKModifyRecordsOperation.RecordSavePolicy = .ifServerRecordUnchanged, atomically: Bool = true
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
                try await modify(saves, deletes, in: zoneID, savePolicy: savePolicy, atomically: atomically, into: &results)
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
    /// per 200 operations).
    private func modify(
        _ saves: [CKRecord], _ deletes: [CKRecord.ID], in zoneID: CKRecordZone.ID, savePolicy: CKModifyRecordsOperation.RecordSavePolicy,
        atomically: Bool, into results: inout ModifyResults
    ) async throws {
        var files: [String: URL] = [:]
        var operations: [RecordOperation] = []
        for record in saves {
            let uploaded = try await itemLevel { () async throws(CKError) in
                do { return try await AssetFiles.upload(record, all: savePolicy == .allKeys, in: self) } catch { throw CKError.wrapping(error) }
            }
            guard case .success(let recordFiles) = uploaded else {
                // An upload refused for its zone or record (the zone is gone, the caller may not
                // write there) fails the zone's items, as the records/modify request itself would.
                if case .failure(let error) = uploaded {
                    for record in saves { results.saves[record.recordID] = .failure(error) }
                    for id in deletes { results.deletes[id] = .failure(error) }
                }
                return
            }
            files.merge(recordFiles, uniquingKeysWith: { $1 })
            operations.append(record.wireOperation(policy: savePolicy))
        }
        operations += deletes.map { RecordOperation(.forceDelete, Record(recordName: $0.recordName)) }
        // An atomic batch goes whole (too many is the server's limitExceeded, as on CloudKit);
        // a non-atomic one is split within the per-request limit.
        let chunk = atomically ? max(operations.count, 1) : Self.operationsPerRequest
        for start in stride(from: 0, to: operations.count, by: chunk) {
            let range = start..<min(start + chunk, operations.count)
            let request = ModifyRecordsRequest(operations: Array(operations[range]), zoneID: zoneID.wire, atomic: atomically)
            let answers: [RecordResult]
            switch try await itemLevel({ () async throws(CKError) in try await post("records/modify", request, as: RecordsResponse.self) }) {
            case .success(let response): answers = response.records
            case .failure(let error):
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
