import CloudKit
import Foundation
import Testing

/// What a CKSyncEngine-style app archives with `NSKeyedArchiver` — a record's system fields, a
/// zone's change token — still works after the server restarts on the same data: the restored
/// record saves without a conflict, and the restored token reports nothing new until something is.
@Suite struct RestartArchiveTests {
    @Test func systemFieldsArchivedBeforeARestartSaveWithoutConflictAfterIt() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Trips")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon", zoneID: zoneID))
            record["caption"] = "Lisbon"
            record["nights"] = 4
            let saved = try await db.save(record)
            let archiver = NSKeyedArchiver(requiringSecureCoding: true)
            saved.encodeSystemFields(with: archiver)
            let archive = archiver.encodedData

            try await server.restart()

            let afterRestart = try server.container("alice").privateCloudDatabase
            let restored = try restore(archive)
            #expect(restored.recordID == saved.recordID && restored.recordType == "Destination")
            #expect(restored.recordChangeTag == saved.recordChangeTag && restored.recordChangeTag != nil)
            #expect(restored.allKeys().isEmpty, "system fields carry no values")
            restored["caption"] = "Lisbon, after a restart"
            let again = try await afterRestart.save(restored)
            #expect(again.recordChangeTag != saved.recordChangeTag)

            let fetched = try await afterRestart.record(for: saved.recordID)
            #expect(fetched["caption"] as? String == "Lisbon, after a restart")
            #expect(fetched["nights"] as? Int == 4, "fields the restored record did not change are kept")

            // The change tag still guards the record: the same archive is stale now.
            let stale = try restore(archive)
            stale["caption"] = "stale"
            let error = try await #require(throws: CKError.self) { try await afterRestart.save(stale) }
            #expect(error.code == .serverRecordChanged)
        }
    }

    @Test func aChangeTokenArchivedBeforeARestartReportsNoChangesAfterIt() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Journal")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let records = (1...3).map { index in
                let record = CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: "entry-\(index)", zoneID: zoneID))
                record["text"] = "day \(index)"
                return record
            }
            _ = try await db.modifyRecords(saving: records, deleting: [])

            var token: CKServerChangeToken?
            var seen = Set<String>()
            var moreComing = true
            while moreComing {
                let page = try await db.recordZoneChanges(inZoneWith: zoneID, since: token)
                seen.formUnion(page.modificationResultsByID.keys.map(\.recordName))
                token = page.changeToken
                moreComing = page.moreComing
            }
            #expect(seen == ["entry-1", "entry-2", "entry-3"])
            let archive = try NSKeyedArchiver.archivedData(withRootObject: try #require(token), requiringSecureCoding: true)

            try await server.restart()

            let afterRestart = try server.container("alice").privateCloudDatabase
            let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKServerChangeToken.self, from: archive))
            let nothing = try await afterRestart.recordZoneChanges(inZoneWith: zoneID, since: restored)
            #expect(nothing.modificationResultsByID.isEmpty)
            #expect(nothing.deletions.isEmpty)
            #expect(!nothing.moreComing)

            // The restored token is a real position: a change made now is the only one after it.
            let entry = CKRecord(recordType: "Entry", recordID: CKRecord.ID(recordName: "entry-4", zoneID: zoneID))
            entry["text"] = "day 4"
            _ = try await afterRestart.save(entry)
            let next = try await afterRestart.recordZoneChanges(inZoneWith: zoneID, since: restored)
            #expect(Set(next.modificationResultsByID.keys.map(\.recordName)) == ["entry-4"])
        }
    }
}

/// A record restored from an archive of its system fields.
private func restore(_ archive: Data) throws -> CKRecord {
    let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archive)
    unarchiver.requiresSecureCoding = true
    return try #require(CKRecord(coder: unarchiver))
}
