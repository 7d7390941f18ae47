import CloudKit
import Foundation
import Testing

/// Alice shares a record hierarchy (a trip and a stop under it) with bob, READ_WRITE, by email:
/// bob resolves the URL to metadata, accepts, finds both records in his shared database, and his
/// edit reaches alice; the share lists bob as accepted, bob sees himself as its current user
/// participant, and removing him from the share ends his access.
@Suite struct HierarchyShareTests {
    @Test func bobAcceptsAliceHierarchyShareAndHisEditReachesHer() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let shared = try await shareTripWithBob(alice: alice, bob: bob)
            let aliceID = try await alice.userRecordID()
            #expect(shared.bobZoneID.ownerName == aliceID.recordName, "bob sees the zone as alice's")

            let bobDB = bob.sharedCloudDatabase
            let trip = try await bobDB.record(for: CKRecord.ID(recordName: shared.rootID.recordName, zoneID: shared.bobZoneID))
            let stop = try await bobDB.record(for: CKRecord.ID(recordName: shared.childID.recordName, zoneID: shared.bobZoneID))
            #expect(trip["title"] as? String == "Portugal")
            #expect(stop["caption"] as? String == "Lisbon")
            #expect(stop.parent?.recordID.recordName == shared.rootID.recordName)

            stop["caption"] = "Lisbon, by Bob"
            _ = try await bobDB.save(stop)

            let aliceDB = alice.privateCloudDatabase
            #expect(try await aliceDB.record(for: shared.childID)["caption"] as? String == "Lisbon, by Bob")
            #expect(try await aliceDB.record(for: shared.rootID).share?.recordID == shared.shareID, "the root names its share")

            let share = try #require(try await aliceDB.record(for: shared.shareID) as? CKShare)
            let bobID = try await bob.userRecordID()
            let bobParticipant = try #require(share.participants.first { isBob($0, bobID) })
            #expect(bobParticipant.acceptanceStatus == .accepted)
            #expect(bobParticipant.permission == .readWrite)
        }
    }

    /// Unsure the module/server supports it: bob looks up the share record itself in his shared
    /// database and expects `currentUserParticipant` to be him.
    @Test func bobIsTheCurrentUserParticipantOfTheShareHeFetches() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let shared = try await shareTripWithBob(alice: alice, bob: bob)
            let bobID = try await bob.userRecordID()

            let fetched = try await bob.sharedCloudDatabase.record(for: CKRecord.ID(recordName: shared.shareID.recordName, zoneID: shared.bobZoneID))
            let share = try #require(fetched as? CKShare)
            let me = try #require(share.currentUserParticipant)
            #expect(isBob(me, bobID))
            #expect(me.acceptanceStatus == .accepted)
            #expect(me.permission == .readWrite)
            #expect(me.role == .privateUser)
        }
    }

    @Test func removingBobFromTheShareEndsHisAccess() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let shared = try await shareTripWithBob(alice: alice, bob: bob)
            let bobID = try await bob.userRecordID()
            let stopAsBobSeesIt = CKRecord.ID(recordName: shared.childID.recordName, zoneID: shared.bobZoneID)
            _ = try await bob.sharedCloudDatabase.record(for: stopAsBobSeesIt)

            let aliceDB = alice.privateCloudDatabase
            let share = try #require(try await aliceDB.record(for: shared.shareID) as? CKShare)
            let participant = try #require(share.participants.first { isBob($0, bobID) })
            share.removeParticipant(participant)
            #expect(!share.participants.contains { isBob($0, bobID) })
            let saved = try #require(try await aliceDB.save(share) as? CKShare)
            #expect(!saved.participants.contains { isBob($0, bobID) })

            // CloudKit's answer varies with how the record is reached; any of these means "no access".
            let error = try await #require(throws: CKError.self) { try await bob.sharedCloudDatabase.record(for: stopAsBobSeesIt) }
            #expect([CKError.Code.unknownItem, .zoneNotFound, .permissionFailure].contains(error.code), "bob's fetch failed with \(error.code)")
        }
    }
}

/// Alice's shared trip as both sides name it.
private struct SharedTrip {
    /// In alice's private database.
    let rootID: CKRecord.ID
    let childID: CKRecord.ID
    let shareID: CKRecord.ID
    /// The zone as bob's shared database names it (owned by alice).
    let bobZoneID: CKRecordZone.ID
}

/// Alice saves a trip and a stop under it (`setParent`), shares the trip with bob by email,
/// READ_WRITE; bob resolves the share URL to its metadata and accepts it.
private func shareTripWithBob(alice: CKContainer, bob: CKContainer) async throws -> SharedTrip {
    let db = alice.privateCloudDatabase
    let zoneID = CKRecordZone.ID(zoneName: "Trips")
    _ = try await db.save(CKRecordZone(zoneID: zoneID))
    let root = CKRecord(recordType: "Trip", recordID: CKRecord.ID(recordName: "portugal", zoneID: zoneID))
    root["title"] = "Portugal"
    let child = CKRecord(recordType: "Stop", recordID: CKRecord.ID(recordName: "lisbon", zoneID: zoneID))
    child["caption"] = "Lisbon"
    child.setParent(root)
    let (records, _) = try await db.modifyRecords(saving: [root, child], deleting: [])
    let savedRoot = try #require(try records[root.recordID]?.get())

    let share = CKShare(rootRecord: savedRoot)
    share[CKShare.SystemFieldKey.title] = "Portugal trip"
    share.publicPermission = .none
    let bobParticipant = try await alice.shareParticipant(forEmailAddress: "bob@example.com")
    bobParticipant.permission = .readWrite
    share.addParticipant(bobParticipant)
    let (saves, _) = try await db.modifyRecords(saving: [savedRoot, share], deleting: [])
    let savedShare = try #require(try saves[share.recordID]?.get() as? CKShare)
    let url = try #require(savedShare.url)

    let metadata = try await bob.shareMetadata(for: url)
    #expect(metadata.participantPermission == .readWrite)
    #expect(metadata.hierarchicalRootRecordID?.recordName == root.recordID.recordName)
    _ = try await bob.accept(metadata)

    let zones = try await bob.sharedCloudDatabase.allRecordZones()
    let sharedZone = try #require(zones.first { $0.zoneID.zoneName == zoneID.zoneName })
    return SharedTrip(rootID: root.recordID, childID: child.recordID, shareID: savedShare.recordID, bobZoneID: sharedZone.zoneID)
}

/// Whether `participant` is bob (by user record or by the email he was invited with).
private func isBob(_ participant: CKShare.Participant, _ bobID: CKRecord.ID) -> Bool {
    participant.userIdentity.userRecordID?.recordName == bobID.recordName
        || participant.userIdentity.lookupInfo?.emailAddress == "bob@example.com"
}
