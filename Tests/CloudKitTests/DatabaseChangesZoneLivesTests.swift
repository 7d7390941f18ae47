import CloudKit
import Foundation
import Testing

/// A database change fetch lists each zone once, as it is now: a zone deleted and made again is
/// one live zone, never its past lives — Apple's samples wipe a zone's local data when they see it
/// deleted, so a past life listed beside the live zone would lose a device's unsent edits.
@Suite struct DatabaseChangesZoneLivesTests {
    @Test func withNoTokenAZoneMadeAgainIsListedOnceAndNoDeletion() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let trips = CKRecordZone.ID(zoneName: "Trips")
            let gone = CKRecordZone.ID(zoneName: "Gone")
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: gone)], deleting: [])
            try await db.deleteRecordZone(withID: gone)
            for _ in 0..<3 {
                _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: trips)], deleting: [])
                try await db.deleteRecordZone(withID: trips)
            }
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: trips)], deleting: [])

            let changes = try await db.databaseChanges(since: nil)
            #expect(changes.modifications.map(\.zoneID.zoneName).filter { $0 != CKRecordZone.ID.defaultZoneName } == ["Trips"])
            #expect(changes.deletions.isEmpty, "with no token, no deletions: \(changes.deletions.map(\.zoneID.zoneName))")
        }
    }

    @Test func sinceATokenAZoneMadeAgainIsOneLiveEntryAndAZoneStillGoneOneDeletion() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let trips = CKRecordZone.ID(zoneName: "Trips")
            let gone = CKRecordZone.ID(zoneName: "Gone")
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: trips), CKRecordZone(zoneID: gone)], deleting: [])
            let before = try await db.databaseChanges(since: nil).changeToken

            for _ in 0..<2 {
                try await db.deleteRecordZone(withID: trips)
                _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: trips)], deleting: [])
            }
            try await db.deleteRecordZone(withID: gone)

            let changes = try await db.databaseChanges(since: before)
            #expect(changes.modifications.map(\.zoneID.zoneName) == ["Trips"])
            #expect(changes.deletions.map(\.zoneID.zoneName) == ["Gone"])
        }
    }
}
