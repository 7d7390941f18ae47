import CloudKit
import Foundation
import Testing

/// `CKDatabase.DatabaseChange.Deletion.purged` (Apple's iOS 15 spelling, before `reason`) is
/// true for a zone the user deleted when managing their iCloud storage, false for one the app
/// deleted.
@Suite struct ZoneDeletionPurgedTests {
    @available(*, deprecated, message: "exercises DatabaseChange.Deletion.purged")
    @Test func aZoneTheUserPurgedReadsPurgedAndOneTheAppDeletedDoesNot() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let db = alice.privateCloudDatabase
            let purgedZone = CKRecordZone.ID(zoneName: "Purged")
            let deletedZone = CKRecordZone.ID(zoneName: "Deleted")
            _ = try await db.modifyRecordZones(saving: [CKRecordZone(zoneID: purgedZone), CKRecordZone(zoneID: deletedZone)], deleting: [])
            let before = try await db.databaseChanges(since: nil).changeToken

            let user = try await alice.userRecordID().recordName
            let container = server.containerIdentifier
            let reset = ["account", "reset-zone", "--container", container, "--user", user, "--zone", "Purged", "--reason", "purged"]
            #expect(try await server.stratus(reset) == 0)
            try await db.deleteRecordZone(withID: deletedZone)

            let changes = try await db.databaseChanges(since: before)
            let purged = Dictionary(uniqueKeysWithValues: changes.deletions.map { ($0.zoneID.zoneName, $0.purged) })
            #expect(purged == ["Purged": true, "Deleted": false])
            let reasons = Dictionary(uniqueKeysWithValues: changes.deletions.map { ($0.zoneID.zoneName, $0.reason) })
            #expect(reasons == ["Purged": .purged, "Deleted": .deleted])
        }
    }
}
