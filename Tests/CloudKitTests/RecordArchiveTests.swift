import CloudKit
import Foundation
import Testing

/// Records as CKSyncEngine apps keep them: system fields archived with `NSKeyedArchiver`
/// (`encodeSystemFields(with:)`), restored later — even by another process — and saved without
/// a conflict; whole records and change tokens archived too.
@Suite struct RecordArchiveTests {
    @Test func systemFieldsSurviveAnArchiveAndSaveWithoutConflict() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Trips")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon", zoneID: zoneID))
            record["caption"] = "Lisbon"
            let saved = try await db.save(record)

            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            saved.encodeSystemFields(with: archiver)
            let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
            unarchiver.requiresSecureCoding = true
            let restored = try #require(CKRecord(coder: unarchiver))
            #expect(restored.recordID == saved.recordID && restored.recordType == "Destination")
            #expect(restored.recordChangeTag == saved.recordChangeTag && restored.recordChangeTag != nil)
            #expect(restored["caption"] == nil && restored.creationDate == saved.creationDate)

            restored["caption"] = "Lisbon, restored"
            let again = try await db.save(restored)
            #expect(again["caption"] as? String == "Lisbon, restored")
            #expect(again.recordChangeTag != saved.recordChangeTag)
        }
    }
}
