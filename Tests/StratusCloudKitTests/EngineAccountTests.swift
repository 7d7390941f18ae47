import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// The engine and the account, with no server: a new engine reports who signed in before any
/// sync; another user, or signing out, resets the state; no account at all keeps every change;
/// the database subscription is saved once per account.
@Suite(.timeLimit(.minutes(1))) struct EngineAccountTests {
    @Test func aNewEngineReportsTheSignInBeforeAnySync() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        await harness.waitFor("accountChange signIn")

        #expect(harness.milestones == ["accountChange signIn"], "the sign-in alone, no sync")
        guard case .signIn(let user)? = harness.accountChanges.first else {
            Issue.record("expected signIn, got \(harness.accountChanges)")
            return
        }
        #expect(user.recordName == "_alice")
        #expect(harness.fake.requests == [.userRecordID])
        #expect(engine.state.serialization.user == "_alice")
    }

    @Test func anotherUserOnTheDeviceIsASwitchThatDropsThePreviousUsersChanges() async throws {
        let alice = EngineHarness()
        alice.fake.serverSaveZone(notesZone)
        let first = CKSyncEngine(alice.configuration())
        try await first.fetchChanges()
        alice.write("hers", "alice's note, not sent", on: first)
        let state = first.state.serialization
        #expect(state.user == "_alice")

        alice.fake.user = "_bob"
        let bob = EngineHarness(fake: alice.fake, clock: alice.clock)
        let second = CKSyncEngine(bob.configuration(state: state))
        await bob.waitFor("accountChange switchAccounts")
        guard case .switchAccounts(let previous, let current)? = bob.accountChanges.first else {
            Issue.record("expected switchAccounts, got \(bob.accountChanges)")
            return
        }
        #expect(previous.recordName == "_alice")
        #expect(current.recordName == "_bob")
        #expect(second.state.pendingRecordZoneChanges.isEmpty, "alice's changes are not bob's")

        try await second.sendChanges()
        #expect(alice.fake.requests(of: .modifyRecords).isEmpty, "nothing of alice's goes to bob's database")
        #expect(bob.accountChanges.count == 1)
    }

    /// The device signed out (no account at all, unlike a refused token): reported once, the
    /// state starts over, and a fetch then has nobody to fetch for.
    @Test func signingOutIsReportedAndResetsTheState() async throws {
        let phone = EngineHarness()
        let first = CKSyncEngine(phone.configuration())
        try await first.fetchChanges()
        phone.write("hers", on: first)
        let state = first.state.serialization

        phone.fake.signOut()
        let relaunched = EngineHarness(fake: phone.fake, clock: phone.clock)
        let second = CKSyncEngine(relaunched.configuration(state: state))
        await relaunched.waitFor("accountChange signOut")
        guard case .signOut(let previous)? = relaunched.accountChanges.first else {
            Issue.record("expected signOut, got \(relaunched.accountChanges)")
            return
        }
        #expect(previous.recordName == "_alice")
        #expect(second.state.pendingRecordZoneChanges.isEmpty, "a signed-out device's state starts over")

        let error = try await #require(throws: CKError.self) { try await second.fetchChanges() }
        #expect(error.code == .notAuthenticated)
        #expect(relaunched.accountChanges.count == 1, "nobody to sign out twice")
    }

    @Test func withNoAccountFetchAndSendThrowNotAuthenticatedAndEveryChangeStays() async throws {
        let harness = EngineHarness(fake: ScriptedSyncDatabase(user: nil))
        harness.fake.holdsAccount = false
        let engine = CKSyncEngine(harness.configuration())
        engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: notesZone))])
        let ids = harness.write(["a", "b"], on: engine)

        let fetch = try await #require(throws: CKError.self) { try await engine.fetchChanges() }
        #expect(fetch.code == .notAuthenticated)
        let send = try await #require(throws: CKError.self) { try await engine.sendChanges() }
        #expect(send.code == .notAuthenticated)

        #expect(engine.state.pendingRecordZoneChanges == ids.map { CKSyncEngine.PendingRecordZoneChange.saveRecord($0) })
        #expect(engine.state.pendingDatabaseChanges.count == 1)
        #expect(harness.accountChanges.isEmpty, "nobody signed in or out")
        #expect(harness.milestones.isEmpty, "neither began")
        #expect(harness.fake.requests.allSatisfy { $0 == .userRecordID })
    }

    @Test func theDatabaseSubscriptionIsSavedOncePerAccount() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()
        try await engine.fetchChanges()
        #expect(harness.fake.requests(of: .saveSubscription) == [.saveSubscription("CKSyncEngine-private")])
        #expect(harness.fake.subscriptionIDs == ["CKSyncEngine-private"])

        harness.fake.user = "_bob"
        try await engine.fetchChanges()
        #expect(harness.fake.requests(of: .saveSubscription).count == 2, "saved again for the new account")
        #expect(harness.accountChanges.count == 2)
    }

    /// The subscription does not hold a fetch back: one that could not be saved is saved by
    /// the next fetch.
    @Test func aSubscriptionNotSavedDoesNotHoldTheFetchBack() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("waiting", "on the server"))
        harness.fake.failNext(.saveSubscription, with: CKError(.internalError, "the server could not save it"))
        let engine = CKSyncEngine(harness.configuration())
        try await engine.fetchChanges()

        #expect(harness.text(of: "waiting") == "on the server")
        #expect(harness.fake.subscriptionIDs.isEmpty)
        try await engine.fetchChanges()
        #expect(harness.fake.subscriptionIDs == ["CKSyncEngine-private"])
        #expect(harness.fake.requests(of: .saveSubscription).count == 2)
    }
}
