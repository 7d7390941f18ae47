import CloudKit
import Foundation
import Testing

/// A second account through sharing: alice's engine works on her private database, bob's on his
/// shared database. Through a record-hierarchy share and a zone-wide share bob's engine fetches
/// what is shared (only that), his edits reach alice's engine and hers reach his; through a
/// READ_ONLY share his edit comes back as a failed save with `permissionFailure`.
@Suite struct SyncEngineSharingTests {
    @Test func bobsEngineFetchesAliceHierarchyShareOnlyAndHisEditReachesHerEngine() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let zone = CKRecordZone.ID(zoneName: "Trips")
            let alicePhone = NoteDevice(alice.privateCloudDatabase, zoneID: zone)
            await alicePhone.write("trip", "Portugal")
            await alicePhone.write("day-1", "Alfama")
            await alicePhone.write("diary", "not for bob")
            try await alicePhone.send()

            // The day goes under the trip; the trip is the share's root.
            let db = alice.privateCloudDatabase
            let dayID = CKRecord.ID(recordName: "day-1", zoneID: zone)
            let day = try await db.record(for: dayID)
            let trip = try await db.record(for: CKRecord.ID(recordName: "trip", zoneID: zone))
            day.setParent(trip)
            _ = try await db.save(day)
            _ = try await shareWithBob(CKShare(rootRecord: trip), alongside: [trip], from: alice, to: bob, as: .readWrite)
            try await alicePhone.fetch()

            let bobPhone = NoteDevice(bob.sharedCloudDatabase, zoneID: zone)
            try await bobPhone.fetch()
            #expect(await bobPhone.notes == ["trip": "Portugal", "day-1": "Alfama"], "the hierarchy, not alice's diary")
            let sharedZone = try #require(await bobPhone.zone(of: "day-1"))
            #expect(sharedZone.ownerName == (try await alice.userRecordID()).recordName, "bob sees the zone as alice's")

            await bobPhone.write("day-1", "Alfama and Graça", in: sharedZone)
            try await bobPhone.send()
            #expect(await bobPhone.failedSaves.isEmpty)
            #expect(await bobPhone.engine.state.pendingDatabaseChanges.isEmpty, "a participant queues no zones")

            try await alicePhone.fetch()
            #expect(await alicePhone.notes == ["trip": "Portugal", "day-1": "Alfama and Graça", "diary": "not for bob"])
            #expect(try await db.record(for: dayID).parent?.recordID.recordName == "trip", "bob's edit kept the parent")
        }
    }

    @Test func bobsEngineFetchesAliceZoneShareAndTheirEditsReachEachOther() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let zone = CKRecordZone.ID(zoneName: "Album")
            let alicePhone = NoteDevice(alice.privateCloudDatabase, zoneID: zone)
            await alicePhone.write("tram", "Tram 28")
            try await alicePhone.send()
            _ = try await shareWithBob(CKShare(recordZoneID: zone), alongside: [], from: alice, to: bob, as: .readWrite)

            let bobPhone = NoteDevice(bob.sharedCloudDatabase, zoneID: zone)
            try await bobPhone.fetch()
            #expect(await bobPhone.notes == ["tram": "Tram 28"])
            let sharedZone = try #require(await bobPhone.zone(of: "tram"))

            await bobPhone.write("tram", "Tram 28 at dusk", in: sharedZone)
            await bobPhone.write("castle", "São Jorge", in: sharedZone)
            try await bobPhone.send()
            #expect(await bobPhone.failedSaves.isEmpty)
            try await alicePhone.fetch()
            #expect(await alicePhone.notes == ["tram": "Tram 28 at dusk", "castle": "São Jorge"])

            await alicePhone.write("castle", "São Jorge, closed on Mondays")
            try await alicePhone.send()
            try await bobPhone.fetch()
            #expect(await bobPhone.notes == ["tram": "Tram 28 at dusk", "castle": "São Jorge, closed on Mondays"])
        }
    }

    @Test func bobsEditThroughAReadOnlyShareComesBackAsAFailedSaveWithPermissionFailure() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let zone = CKRecordZone.ID(zoneName: "Menu")
            let alicePhone = NoteDevice(alice.privateCloudDatabase, zoneID: zone)
            await alicePhone.write("soup", "caldo verde")
            try await alicePhone.send()
            _ = try await shareWithBob(CKShare(recordZoneID: zone), alongside: [], from: alice, to: bob, as: .readOnly)

            let bobPhone = NoteDevice(bob.sharedCloudDatabase, zoneID: zone)
            try await bobPhone.fetch()
            #expect(await bobPhone.notes == ["soup": "caldo verde"])
            let sharedZone = try #require(await bobPhone.zone(of: "soup"))

            await bobPhone.write("soup", "gazpacho", in: sharedZone)
            let error = try await #require(throws: CKError.self) { try await bobPhone.send() }
            #expect(error.code == .partialFailure)
            #expect(await bobPhone.failedSaves.map(\.code) == [.permissionFailure])
            #expect(await bobPhone.engine.state.pendingRecordZoneChanges.isEmpty, "a refused save leaves the queue; the delegate drops it")

            let soup = try await alice.privateCloudDatabase.record(for: CKRecord.ID(recordName: "soup", zoneID: zone))
            #expect(soup["text"] as? String == "caldo verde")
        }
    }
}

/// Saves `share` (with `records`: its root, for a hierarchy) as alice with bob invited by email
/// at `permission`, and bob accepts it. Answers the saved share.
func shareWithBob(
    _ share: CKShare, alongside records: [CKRecord], from alice: CKContainer, to bob: CKContainer, as permission: CKShare.ParticipantPermission
) async throws -> CKShare {
    share.publicPermission = .none
    let invited = try await alice.shareParticipant(forEmailAddress: "bob@example.com")
    invited.permission = permission
    share.addParticipant(invited)
    let (saves, _) = try await alice.privateCloudDatabase.modifyRecords(saving: records + [share], deleting: [])
    let saved = try #require(try saves[share.recordID]?.get() as? CKShare)
    let url = try #require(saved.url)
    _ = try await bob.accept(try await bob.shareMetadata(for: url))
    return saved
}
