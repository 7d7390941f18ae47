import CloudKit
import Foundation
import Testing

/// `changeTokenExpired` reached through CloudKit's API alone: alice removes bob from a zone
/// share and invites him again; once he accepts again, the zone token his engine holds is from
/// before his access was granted anew, and the server refuses it with `changeTokenExpired`
/// (what bob held may be stale). The engine handles it as CloudKit's does, without the app: it
/// drops the token and fetches the zone again from the start — so a note bob already had and
/// that did not change since comes again — and the fetch succeeds.
///
/// (The other ways to an expired token: a compacted history, which needs admin access, and a
/// token from a zone deleted and made again since — the database feed lists that zone once, as
/// it is now, and its old token is refused the same way.)
@Suite struct SyncEngineChangeTokenExpiredTests {
    @Test func bobsEngineFetchesAZoneAgainFromTheStartWhenItsTokenExpiredAfterHeWasInvitedAgain() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let bobID = try await bob.userRecordID()
            let zone = CKRecordZone.ID(zoneName: "Trip")
            let alicePhone = NoteDevice(alice.privateCloudDatabase, zoneID: zone)
            await alicePhone.write("day-1", "Alfama")
            try await alicePhone.send()
            let shared = try await shareWithBob(CKShare(recordZoneID: zone), alongside: [], from: alice, to: bob, as: .readWrite)

            let bobPhone = NoteDevice(bob.sharedCloudDatabase, zoneID: zone)
            try await bobPhone.fetch()
            #expect(await bobPhone.notes == ["day-1": "Alfama"])

            // Alice removes bob, adds a day while he is out, and invites him again.
            let db = alice.privateCloudDatabase
            let current = try #require(try await db.record(for: shared.recordID) as? CKShare)
            let bobParticipant = try #require(current.participants.first { isBob($0, bobID) })
            current.removeParticipant(bobParticipant)
            _ = try await db.save(current)
            await alicePhone.write("day-2", "Sintra")
            try await alicePhone.send()
            let again = try #require(try await db.record(for: shared.recordID) as? CKShare)
            #expect(!again.participants.contains { isBob($0, bobID) })
            let invitation = try await alice.shareParticipant(forEmailAddress: "bob@example.com")
            invitation.permission = .readWrite
            again.addParticipant(invitation)
            let reinvited = try #require(try await db.save(again) as? CKShare)
            _ = try await bob.accept(try await bob.shareMetadata(for: try #require(reinvited.url)))

            await bobPhone.resetLog()
            try await bobPhone.fetch()
            #expect(await bobPhone.zoneFetchErrors.isEmpty, "the engine handled the expired token itself")
            #expect(Set(await bobPhone.fetchedNames) == ["day-1", "day-2"], "fetched again from the start: day-1 too")
            #expect(await bobPhone.notes == ["day-1": "Alfama", "day-2": "Sintra"])
            let events = await bobPhone.events
            #expect(unbalancedEvents(events) == nil)

            // The fresh token holds: nothing comes twice.
            await bobPhone.resetLog()
            try await bobPhone.fetch()
            #expect(await bobPhone.fetchedNames.isEmpty)
        }
    }
}

/// Whether `participant` is bob (by user record or by the email he was invited with).
private func isBob(_ participant: CKShare.Participant, _ bobID: CKRecord.ID) -> Bool {
    participant.userIdentity.userRecordID?.recordName == bobID.recordName
        || participant.userIdentity.lookupInfo?.emailAddress == "bob@example.com"
}
