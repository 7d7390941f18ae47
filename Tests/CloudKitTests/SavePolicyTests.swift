import CloudKit
import Foundation
import Testing

/// `CKModifyRecordsOperation.RecordSavePolicy`: `.ifServerRecordUnchanged` refuses a stale save
/// with the three records a merge needs; `.changedKeys` writes only the changed fields over
/// whatever the server has; `.allKeys` writes every local field whatever the server has.
@Suite struct SavePolicyTests {
    @Test func ifServerRecordUnchangedRefusesAStaleSaveWithServerClientAndAncestorRecords() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let id = try await saveOriginal(in: db)
            let mine = try await db.record(for: id)
            let theirs = try await db.record(for: id)
            theirs["caption"] = "theirs"
            let theirsSaved = try await db.save(theirs)
            mine["caption"] = "mine"

            let (saves, _) = try await db.modifyRecords(
                saving: [mine], deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: true
            )
            let result = try #require(saves[id])
            let error = try #require(throws: CKError.self) { try result.get() }
            #expect(error.code == .serverRecordChanged)
            let serverRecord = try #require(error.serverRecord)
            let clientRecord = try #require(error.clientRecord)
            let ancestorRecord = try #require(error.ancestorRecord)
            #expect(serverRecord["caption"] as? String == "theirs")
            #expect(serverRecord.recordChangeTag == theirsSaved.recordChangeTag)
            #expect(clientRecord["caption"] as? String == "mine")
            #expect(ancestorRecord["caption"] as? String == "v1", "the ancestor is the record as the client fetched it")
            #expect(ancestorRecord["body"] as? String == "b1")
            #expect(ancestorRecord.recordChangeTag == mine.recordChangeTag)
            #expect(try await db.record(for: id)["caption"] as? String == "theirs", "the stale save changed nothing")

            // The usual resolution: apply the change to the server's record and save that.
            serverRecord["caption"] = "mine"
            _ = try await db.save(serverRecord)
            #expect(try await db.record(for: id)["caption"] as? String == "mine")
        }
    }

    @Test func changedKeysOverwritesOnlyTheChangedFieldWithoutAConflict() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let id = try await saveOriginal(in: db)
            let mine = try await db.record(for: id)
            let theirs = try await db.record(for: id)
            theirs["body"] = "their body"
            _ = try await db.save(theirs)
            mine["caption"] = "my caption"

            let (saves, _) = try await db.modifyRecords(saving: [mine], deleting: [], savePolicy: .changedKeys, atomically: true)
            let saved = try #require(try saves[id]?.get())
            #expect(saved["caption"] as? String == "my caption")

            let now = try await db.record(for: id)
            #expect(now["caption"] as? String == "my caption")
            #expect(now["body"] as? String == "their body", "a field the other writer set survives")
        }
    }

    /// Apple: `.allKeys` saves every key the record holds, overwriting the server's values, whatever
    /// its change tag; "a server record can contain keys that aren't present locally", and those stay.
    @Test func allKeysWritesEveryLocalFieldAndKeepsFieldsOnlyTheServerHas() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let id = try await saveOriginal(in: db)
            let mine = try await db.record(for: id)
            let theirs = try await db.record(for: id)
            theirs["extra"] = "added by them"
            _ = try await db.save(theirs)
            mine["caption"] = "mine"

            let (saves, _) = try await db.modifyRecords(saving: [mine], deleting: [], savePolicy: .allKeys, atomically: true)
            _ = try #require(try saves[id]?.get())

            let now = try await db.record(for: id)
            #expect(now["caption"] as? String == "mine")
            #expect(now["body"] as? String == "b1", "the client's unchanged fields are written too")
            #expect(now["extra"] as? String == "added by them", "a field only the server has stays")
        }
    }
}

/// Saves `note` in a custom zone with caption `v1` and body `b1`; answers its ID.
private func saveOriginal(in db: CKDatabase) async throws -> CKRecord.ID {
    let zoneID = CKRecordZone.ID(zoneName: "Notes")
    _ = try await db.save(CKRecordZone(zoneID: zoneID))
    let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "note", zoneID: zoneID))
    record["caption"] = "v1"
    record["body"] = "b1"
    return try await db.save(record).recordID
}
