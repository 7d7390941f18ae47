import CloudKit
import Foundation
import Testing

/// Batch limits as CloudKit's framework has them: up to 400 items a modify, `CKError.limitExceeded`
/// beyond, before anything is sent. CloudKit Web Services takes 200 operations a request, so a
/// non-atomic batch goes in requests of 200, and an atomic one of up to 400 in a zone goes whole
/// (the server takes it from a client asking for `frameworkBatches`). The default zone is never
/// atomic: Apple's `isAtomic` has no effect there.
@Suite struct LimitExceededTests {
    @Test func fourHundredRecordsInAnAtomicBatchCommitWhole() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Bulk")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = batch(400, named: "atomic", in: zoneID)
            let (saves, _) = try await db.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            #expect(saves.count == 400 && saves.values.allSatisfy { (try? $0.get()) != nil })

            // Whole means one commit: one stale item of 400 fails them all, nothing is written.
            let again = batch(399, named: "whole", in: zoneID) + [CKRecord(recordType: "Item", recordID: records[0].recordID)]
            let (refused, _) = try await db.modifyRecords(saving: again, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            let codes = refused.values.map { result -> CKError.Code? in
                if case .failure(let error) = result { (error as? CKError)?.code } else { nil }
            }
            #expect(codes.filter { $0 == .serverRecordChanged }.count == 1)
            #expect(codes.filter { $0 == .batchRequestFailed }.count == 399)
            try await expectNoneSaved(Array(again.prefix(399)), in: db)
        }
    }

    @Test func threeHundredRecordsWithDefaultArgumentsAreSavedInTheDefaultZone() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let records = batch(300, named: "bulk", in: .default)
            let (saves, _) = try await db.modifyRecords(saving: records, deleting: [])
            #expect(saves.count == 300 && saves.values.allSatisfy { (try? $0.get()) != nil })
        }
    }

    /// CloudKit's framework takes up to 400 items an operation; CKWS takes 200 a request, so a
    /// non-atomic batch is split and every record saved, as it would be on Apple's servers.
    @Test func twoHundredOneRecordsInANonAtomicBatchAreSplitAndAllSaved() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Bulk")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = batch(201, named: "loose", in: zoneID)
            let (saves, _) = try await db.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
            #expect(saves.count == 201 && saves.values.allSatisfy { (try? $0.get()) != nil })
            let fetched = try await db.records(for: records.map(\.recordID))
            #expect(fetched.values.allSatisfy { (try? $0.get()) != nil } && fetched.count == 201)
        }
    }

    /// Over 400 items is CloudKit's own limitExceeded, split or not: nothing is sent.
    @Test func fourHundredOneRecordsThrowLimitExceededAndSaveNothing() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Bulk")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = batch(401, named: "many", in: zoneID)
            let error = try await #require(throws: CKError.self) {
                try await db.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false)
            }
            #expect(error.code == .limitExceeded)
            try await expectNoneSaved(records, in: db)
        }
    }

    @Test func anOperationOverTheLimitReportsLimitExceededInItsResultBlock() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Bulk")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let operation = CKModifyRecordsOperation(recordsToSave: batch(401, named: "op", in: zoneID), recordIDsToDelete: nil)
            let outcome: Result<Void, any Error> = await withCheckedContinuation { done in
                operation.modifyRecordsResultBlock = { done.resume(returning: $0) }
                db.add(operation)
            }
            let error = try #require(throws: CKError.self) { try outcome.get() }
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func twoHundredRecordsFitInOneBatch() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Bulk")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = batch(200, named: "fits", in: zoneID)
            let (saves, _) = try await db.modifyRecords(saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true)
            #expect(saves.count == 200)
            #expect(saves.values.allSatisfy { (try? $0.get()) != nil })
        }
    }
}

/// `count` new records in `zoneID`.
private func batch(_ count: Int, named prefix: String, in zoneID: CKRecordZone.ID) -> [CKRecord] {
    (0..<count).map { index in
        let record = CKRecord(recordType: "Item", recordID: CKRecord.ID(recordName: "\(prefix)-\(index)", zoneID: zoneID))
        record["index"] = index
        return record
    }
}

/// Expects that neither the first nor the last of `records` is on the server.
private func expectNoneSaved(_ records: [CKRecord], in db: CKDatabase) async throws {
    let ids = [records.first, records.last].compactMap { $0?.recordID }
    let results = try await db.records(for: ids)
    for id in ids {
        let result = try #require(results[id])
        let error = try #require(throws: CKError.self) { try result.get() }
        #expect(error.code == .unknownItem, "\(id.recordName) was not saved")
    }
}
