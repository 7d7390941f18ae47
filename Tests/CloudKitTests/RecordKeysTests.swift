import CloudKit
import Foundation
import Testing

/// Which keys a record holds (`allKeys()`), which the app changed since the server sent it
/// (`changedKeys()`), and values kept in `encryptedValues`.
@Suite struct RecordKeysTests {
    @Test func allKeysListsEveryFieldWithAValue() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon"))
            #expect(record.allKeys().isEmpty)
            record["caption"] = "Lisbon"
            record["nights"] = 4
            record["tags"] = ["tram"]
            #expect(Set(record.allKeys()) == ["caption", "nights", "tags"])
            _ = try await db.save(record)

            let fetched = try await db.record(for: record.recordID)
            #expect(Set(fetched.allKeys()) == ["caption", "nights", "tags"])
        }
    }

    @Test func changedKeysAreEmptyAfterAFetchAndHoldTheKeysSetSince() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon"))
            record["caption"] = "Lisbon"
            record["nights"] = 4
            #expect(Set(record.changedKeys()) == ["caption", "nights"], "a new record's set keys are changed")
            _ = try await db.save(record)

            let fetched = try await db.record(for: record.recordID)
            #expect(fetched.changedKeys().isEmpty)
            fetched["nights"] = 5
            fetched["rating"] = 4.5
            #expect(Set(fetched.changedKeys()) == ["nights", "rating"])
            #expect(Set(fetched.allKeys()) == ["caption", "nights", "rating"])
        }
    }

    @Test func encryptedValuesAreStoredAndReadBack() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Diary")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let record = CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: "day-1", zoneID: zoneID))
            record["title"] = "Day one"
            record.encryptedValues["secret"] = "met the ferry captain"
            record.encryptedValues["pin"] = 1234
            #expect(record.encryptedValues["secret"] as? String == "met the ferry captain")
            _ = try await db.save(record)

            let fetched = try await db.record(for: record.recordID)
            #expect(fetched.encryptedValues["secret"] as? String == "met the ferry captain")
            #expect(fetched.encryptedValues["pin"] as? Int == 1234)
            #expect(fetched["title"] as? String == "Day one")
        }
    }
}
