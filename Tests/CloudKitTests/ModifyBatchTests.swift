import CloudKit
import Foundation
import Testing

/// `modifyRecords` at the edges of a batch, as Apple's framework answers them: up to 400 items
/// in one modify (300 with default arguments in the default zone, where `isAtomic` has no
/// effect; 400 committed atomically in a custom zone), and one record whose asset file is gone
/// failing alone — beside its batch in a non-atomic save, the others failing with
/// `batchRequestFailed` in an atomic one.
@Suite struct ModifyBatchTests {
    private static let zoneID = CKRecordZone.ID(zoneName: "Bulk")

    private func records(_ count: Int, _ prefix: String, in zoneID: CKRecordZone.ID) -> [CKRecord] {
        (0..<count).map { index in
            let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "\(prefix)-\(index)", zoneID: zoneID))
            record["n"] = index
            return record
        }
    }

    private func allSaved(_ results: [CKRecord.ID: Result<CKRecord, any Error>]) -> Bool {
        results.values.allSatisfy { (try? $0.get()) != nil }
    }

    @Test func threeHundredRecordsWithDefaultArgumentsAreSavedInTheDefaultZone() async throws {
        try await StratusServerProcess.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let (saves, _) = try await db.modifyRecords(saving: records(300, "bulk", in: .default), deleting: [])
            #expect(saves.count == 300 && allSaved(saves))
        }
    }

    @Test func fourHundredRecordsCommitAtomicallyInACustomZone() async throws {
        try await StratusServerProcess.with { server in
            let db = try server.container("alice").privateCloudDatabase
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
            let (saves, _) = try await db.modifyRecords(saving: records(400, "atomic", in: Self.zoneID), deleting: [], atomically: true)
            #expect(saves.count == 400 && allSaved(saves))

            // 401 is over the framework's limit: refused before anything is sent.
            let error = await #expect(throws: CKError.self) {
                try await db.modifyRecords(saving: records(401, "over", in: Self.zoneID), deleting: [])
            }
            #expect(error?.code == .limitExceeded)
            let none = try await db.records(for: [CKRecord.ID(recordName: "over-0", zoneID: Self.zoneID)])
            #expect((try? none.values.first?.get()) == nil)
        }
    }

    @Test func aRecordWhoseAssetFileIsGoneFailsAloneInANonAtomicSave() async throws {
        try await StratusServerProcess.with { server in
            let db = try server.container("alice").privateCloudDatabase
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
            let bad = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "bad", zoneID: Self.zoneID))
            bad["photo"] = CKAsset(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID()).jpg"))
            let good = records(2, "good", in: Self.zoneID)
            let (saves, _) = try await db.modifyRecords(saving: [good[0], bad, good[1]], deleting: [], atomically: false)

            let failure = try #require(throws: CKError.self) { try saves[bad.recordID]?.get() }
            #expect(failure.code == .assetFileNotFound)
            #expect(saves[good[0].recordID].map { (try? $0.get()) != nil } == true)
            #expect(saves[good[1].recordID].map { (try? $0.get()) != nil } == true)
        }
    }

    @Test func aRecordWhoseAssetFileIsGoneFailsAnAtomicSaveWithBatchRequestFailedForTheOthers() async throws {
        try await StratusServerProcess.with { server in
            let db = try server.container("alice").privateCloudDatabase
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: Self.zoneID)], deleting: [])
            let bad = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "bad", zoneID: Self.zoneID))
            bad["photo"] = CKAsset(fileURL: FileManager.default.temporaryDirectory.appendingPathComponent("gone-\(UUID()).jpg"))
            let good = records(2, "good", in: Self.zoneID)
            let (saves, deletes) = try await db.modifyRecords(
                saving: [good[0], bad, good[1]], deleting: [CKRecord.ID(recordName: "old", zoneID: Self.zoneID)], atomically: true
            )

            #expect((try? saves[bad.recordID]?.get()) == nil)
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
