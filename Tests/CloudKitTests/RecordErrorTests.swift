import CloudKit
import Foundation
import Testing

/// The errors CloudKit reports for records: each failed record by itself, and in the legacy
/// completion block a `partialFailure` with per-item errors keyed by record ID;
/// `batchRequestFailed` beside the failing item of an atomic batch, `unknownItem`,
/// `zoneNotFound`, and `catch CKError.serverRecordChanged`.
@Suite struct RecordErrorTests {
    @available(*, deprecated, message: "exercises modifyRecordsCompletionBlock")
    @Test func aNonAtomicOperationWithOneStaleRecordReportsItAloneAndFailsTheLegacyBlockPartially() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let stale = try await staleCopy(of: CKRecord.ID(recordName: "lisbon"), in: db)
            let fresh = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "porto"))
            fresh["caption"] = "Porto"

            let operation = CKModifyRecordsOperation(recordsToSave: [fresh, stale], recordIDsToDelete: nil)
            operation.isAtomic = false
            let perRecord = LockedResults()
            operation.perRecordSaveBlock = { id, result in perRecord.set(id, (try? result.get()) != nil) }
            let outcome = Locked<Result<Void, any Error>?>(nil)
            let legacy: (any Error)? = await withCheckedContinuation { done in
                operation.modifyRecordsResultBlock = { result in outcome.update { $0 = result.mapError { $0 as any Error } } }
                operation.modifyRecordsCompletionBlock = { _, _, error in done.resume(returning: error) }
                db.add(operation)
            }

            // The modern result block succeeds: the stale record was reported by itself.
            #expect(outcome.value.map { (try? $0.get()) != nil } == true)
            let error = try #require(legacy as? CKError)
            #expect(error.code == .partialFailure)
            let partial = try #require(error.partialErrorsByItemID)
            #expect(partial.count == 1)
            #expect((partial[stale.recordID] as? CKError)?.code == .serverRecordChanged)
            #expect(partial[fresh.recordID] == nil)
            #expect(perRecord.value == [fresh.recordID: true, stale.recordID: false])
            #expect(try await db.record(for: fresh.recordID)["caption"] as? String == "Porto", "the good record was saved")
        }
    }

    @Test func anAtomicBatchInACustomZoneFailsTheGoodRecordWithBatchRequestFailed() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Trips")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let stale = try await staleCopy(of: CKRecord.ID(recordName: "lisbon", zoneID: zoneID), in: db)
            let fresh = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "porto", zoneID: zoneID))
            fresh["caption"] = "Porto"

            let (saves, _) = try await db.modifyRecords(
                saving: [fresh, stale], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true
            )
            let freshResult = try #require(saves[fresh.recordID])
            let staleResult = try #require(saves[stale.recordID])
            let freshError = try #require(throws: CKError.self) { try freshResult.get() }
            let staleError = try #require(throws: CKError.self) { try staleResult.get() }
            #expect(freshError.code == .batchRequestFailed)
            #expect(staleError.code == .serverRecordChanged)
            #expect(staleError.serverRecord?["caption"] as? String == "theirs")

            let missing = try await #require(throws: CKError.self) { try await db.record(for: fresh.recordID) }
            #expect(missing.code == .unknownItem, "an atomic batch that failed saved nothing")
        }
    }

    @Test func aMissingOrDeletedRecordIsAnUnknownItem() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let missing = try await #require(throws: CKError.self) { try await db.record(for: CKRecord.ID(recordName: "nowhere")) }
            #expect(missing.code == .unknownItem)

            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "faro"))
            _ = try await db.save(record)
            try await db.deleteRecord(withID: record.recordID)
            let deleted = try await #require(throws: CKError.self) { try await db.record(for: record.recordID) }
            #expect(deleted.code == .unknownItem)

            let results = try await db.records(for: [record.recordID])
            let result = try #require(results[record.recordID])
            let perItem = try #require(throws: CKError.self) { try result.get() }
            #expect(perItem.code == .unknownItem)
        }
    }

    @Test func aZoneThatDoesNotExistIsZoneNotFound() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let ghost = CKRecordZone.ID(zoneName: "NoSuchZone")
            let lookup = try await #require(throws: CKError.self) { try await db.record(for: CKRecord.ID(recordName: "x", zoneID: ghost)) }
            #expect(lookup.code == .zoneNotFound)

            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "x", zoneID: ghost))
            let save = try await #require(throws: CKError.self) { try await db.save(record) }
            #expect(save.code == .zoneNotFound)

            let zone = try await #require(throws: CKError.self) { try await db.recordZone(for: ghost) }
            #expect(zone.code == .zoneNotFound)
        }
    }

    @Test func catchCKErrorServerRecordChangedMatchesAStaleSave() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let stale = try await staleCopy(of: CKRecord.ID(recordName: "lisbon"), in: db)
            var caughtByCode = false
            do {
                _ = try await db.save(stale)
                Issue.record("a stale save succeeded")
            } catch CKError.serverRecordChanged {
                caughtByCode = true
            } catch {
                Issue.record("expected serverRecordChanged, got \(error)")
            }
            #expect(caughtByCode)

            var caughtWithRecord = false
            do {
                _ = try await db.save(stale)
            } catch let error as CKError where error.code == .serverRecordChanged {
                caughtWithRecord = error.serverRecord?["caption"] as? String == "theirs"
            }
            #expect(caughtWithRecord)
        }
    }
}

/// A copy of record `id` (saved with caption `v1`) that another save has since made stale, with
/// its own change (`caption` = `mine`) pending; the server holds `caption` = `theirs`.
private func staleCopy(of id: CKRecord.ID, in db: CKDatabase) async throws -> CKRecord {
    let original = CKRecord(recordType: "Destination", recordID: id)
    original["caption"] = "v1"
    _ = try await db.save(original)
    let mine = try await db.record(for: id)
    let theirs = try await db.record(for: id)
    theirs["caption"] = "theirs"
    _ = try await db.save(theirs)
    mine["caption"] = "mine"
    return mine
}

/// Per-record outcomes an operation reports from its own threads.
private final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [CKRecord.ID: Bool] = [:]
    func set(_ id: CKRecord.ID, _ succeeded: Bool) { lock.withLock { results[id] = succeeded } }
    var value: [CKRecord.ID: Bool] { lock.withLock { results } }
}
