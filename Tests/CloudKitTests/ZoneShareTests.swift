import CloudKit
import Foundation
import Testing

/// Sharing the other way round, a whole zone: bob shares his album zone (`CKShare(recordZoneID:)`)
/// with alice READ_ONLY by email; alice accepts, reads its records in her shared database, and
/// any save of hers into it fails with `permissionFailure`.
@Suite struct ZoneShareTests {
    @Test func aliceReadsBobsReadOnlyZoneShareButCannotWriteToIt() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let bobDB = bob.privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Album")
            _ = try await bobDB.save(CKRecordZone(zoneID: zoneID))
            let photo = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "tram", zoneID: zoneID))
            photo["caption"] = "Tram 28"
            _ = try await bobDB.save(photo)

            let share = CKShare(recordZoneID: zoneID)
            share.publicPermission = .none
            let aliceParticipant = try await bob.shareParticipant(forEmailAddress: "alice@example.com")
            aliceParticipant.permission = .readOnly
            share.addParticipant(aliceParticipant)
            let (saves, _) = try await bobDB.modifyRecords(saving: [share], deleting: [])
            let saved = try #require(saves[share.recordID])
            let savedShare = try #require(try saved.get() as? CKShare)
            let url = try #require(savedShare.url)

            let metadata = try await alice.shareMetadata(for: url)
            #expect(metadata.participantPermission == .readOnly)
            #expect(metadata.hierarchicalRootRecordID == nil, "a zone-wide share has no root record")
            _ = try await alice.accept(metadata)

            let aliceShared = alice.sharedCloudDatabase
            let zones = try await aliceShared.allRecordZones()
            let album = try #require(zones.first { $0.zoneID.zoneName == zoneID.zoneName })
            #expect(album.zoneID.ownerName == (try await bob.userRecordID()).recordName)
            let read = try await aliceShared.record(for: CKRecord.ID(recordName: "tram", zoneID: album.zoneID))
            #expect(read["caption"] as? String == "Tram 28")

            read["caption"] = "changed by alice"
            let edit = try await #require(throws: CKError.self) { try await aliceShared.save(read) }
            #expect(edit.code == .permissionFailure)

            let added = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "alice-photo", zoneID: album.zoneID))
            added["caption"] = "mine"
            let create = try await #require(throws: CKError.self) { try await aliceShared.save(added) }
            #expect(create.code == .permissionFailure)

            #expect(try await bobDB.record(for: photo.recordID)["caption"] as? String == "Tram 28", "bob's record is unchanged")
        }
    }
}

/// A participant leaves a share by deleting it from their shared database, as CloudKit documents.
@Suite struct LeavingShareTests {
    @Test func bobLeavesAZoneShareByDeletingItFromHisSharedDatabase() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let zoneID = CKRecordZone.ID(zoneName: "Album")
            _ = try await alice.privateCloudDatabase.save(CKRecordZone(zoneID: zoneID))
            let photo = CKRecord(recordType: "Photo", recordID: CKRecord.ID(recordName: "p1", zoneID: zoneID))
            photo["caption"] = "Tram 28"
            let share = CKShare(recordZoneID: zoneID)
            share.addParticipant(try await alice.shareParticipant(forEmailAddress: "bob@example.com"))
            let (saves, _) = try await alice.privateCloudDatabase.modifyRecords(saving: [photo, share], deleting: [])
            let url = try #require((try saves[share.recordID]?.get() as? CKShare)?.url)
            _ = try await bob.accept(try await bob.shareMetadata(for: url))
            let shared = try #require(try await bob.sharedCloudDatabase.allRecordZones().first { $0.zoneID.zoneName == "Album" })

            try await bob.sharedCloudDatabase.deleteRecord(withID: CKRecord.ID(recordName: CKRecordNameZoneWideShare, zoneID: shared.zoneID))
            #expect(try await bob.sharedCloudDatabase.allRecordZones().isEmpty, "the zone left bob's shared database")
            let kept = try await alice.privateCloudDatabase.record(for: share.recordID)
            #expect(kept is CKShare, "alice's share stays")
        }
    }
}

/// A fetched zone names its zone-wide share (`CKRecordZone.share`), as Apple's framework sets it,
/// so an app checks `zone.share` before making a second share of the zone — in the owner's
/// private database and in the participant's shared one.
@Suite struct ZoneShareReferenceTests {
    @Test func aFetchedZoneNamesItsZoneWideShare() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let database = alice.privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Family")
            _ = try await database.save(CKRecordZone(zoneID: zoneID))
            _ = try await database.save(CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Plain")))
            #expect(try await database.recordZone(for: zoneID).share == nil, "no share yet")

            let share = CKShare(recordZoneID: zoneID)
            share.publicPermission = .readOnly
            let (saves, _) = try await database.modifyRecords(saving: [share], deleting: [])
            let saved = try #require(try saves[share.recordID]?.get() as? CKShare)

            let looked = try await database.recordZone(for: zoneID)
            #expect(looked.share?.recordID == share.recordID)
            let listed = try await database.allRecordZones()
            #expect(listed.first { $0.zoneID == zoneID }?.share?.recordID == share.recordID)
            #expect(listed.first { $0.zoneID.zoneName == "Plain" }?.share == nil)

            // The participant's shared database names it too, in the owner's zone.
            let url = try #require(saved.url)
            _ = try await bob.accept(try await bob.shareMetadata(for: url))
            let shared = try await bob.sharedCloudDatabase.allRecordZones()
            let family = try #require(shared.first { $0.zoneID.zoneName == "Family" })
            #expect(family.share?.recordID.recordName == CKRecordNameZoneWideShare)
            #expect(family.share?.recordID.zoneID == family.zoneID)
        }
    }
}
