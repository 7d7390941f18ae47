import CloudKit
import Foundation
import Testing

/// `modifyRecords` with one record whose asset file is gone, as Apple's framework answers it: that
/// record fails alone — beside its batch in a non-atomic save, the others failing with
/// `batchRequestFailed` in an atomic one (nothing of the zone written).
@Suite struct ModifyAssetFailureTests {
    private static let zoneID = CKRecordZone.ID(zoneName: "Bulk")

    private func records(_ count: Int, _ prefix: String, in zoneID: CKRecordZone.ID) -> [CKRecord] {
        (0..<count).map { index in
            let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "\(prefix)-\(index)", zoneID: zoneID))
            record["n"] = index
            return record
        }
    }

    /// The zone made, a record whose asset file is gone and two good ones (not saved yet).
    private func badBesideGood(in db: CKDatabase) async throws -> (bad: CKRecord, good: [CKRecord]) {
        _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
        let bad = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "bad", zoneID: Self.zoneID))
        bad["photo"] = CKAsset(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID()).jpg"))
        return (bad, records(2, "good", in: Self.zoneID))
    }

    @Test func aRecordWhoseAssetFileIsGoneFailsAloneInANonAtomicSave() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let (bad, good) = try await badBesideGood(in: db)
            let (saves, _) = try await db.modifyRecords(saving: [good[0], bad, good[1]], deleting: [], atomically: false)

            let failure = try #require(throws: CKError.self) { try saves[bad.recordID]?.get() }
            #expect(failure.code == .assetFileNotFound)
            #expect(saves[good[0].recordID].map { (try? $0.get()) != nil } == true)
            #expect(saves[good[1].recordID].map { (try? $0.get()) != nil } == true)
        }
    }

    @Test func aRecordWhoseAssetFileIsGoneFailsAnAtomicSaveWithBatchRequestFailedForTheOthers() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let (bad, good) = try await badBesideGood(in: db)
            let (saves, deletes) = try await db.modifyRecords(
                saving: [good[0], bad, good[1]], deleting: [CKRecord.ID(recordName: "old", zoneID: Self.zoneID)], atomically: true
            )

            let failure = try #require(throws: CKError.self) { try saves[bad.recordID]?.get() }
            #expect(failure.code == .assetFileNotFound)
            for record in good {
                let error = try #require(throws: CKError.self) { try saves[record.recordID]?.get() }
                #expect(error.code == .batchRequestFailed)
            }
            #expect(deletes.count == 1)
            let stored = try await db.records(for: good.map(\.recordID))
            #expect(stored.values.allSatisfy { (try? $0.get()) == nil }, "nothing of the atomic batch was written")
        }
    }
}
