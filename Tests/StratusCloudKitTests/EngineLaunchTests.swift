import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// An app relaunched from the `State.Serialization` it saved: the new engine keeps the pending
/// changes and tokens, fetches nothing twice, and — automatic — sends what the state holds
/// pending, a change a `retryAfter` held only once the clock passed it.
@Suite(.timeLimit(.minutes(1))) struct EngineLaunchTests {
    @Test func anEngineRelaunchedFromItsSavedStateKeepsPendingChangesAndTokens() async throws {
        let phone = EngineHarness()
        phone.fake.serverSave(note("settled", "on the server"))
        let first = CKSyncEngine(phone.configuration())
        try await first.fetchChanges()
        let draft = phone.write("draft", "typed offline", on: first)
        let json = try JSONEncoder().encode(first.state.serialization)
        let saved = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: json)
        #expect(saved == first.state.serialization)

        let relaunched = EngineHarness(fake: phone.fake, clock: phone.clock)
        relaunched.remember("draft", "typed offline")
        let second = CKSyncEngine(relaunched.configuration(state: saved))
        #expect(second.state.pendingRecordZoneChanges == [.saveRecord(draft)])
        phone.fake.clearRequests()
        try await second.fetchChanges()

        #expect(relaunched.fetchedNames.isEmpty, "nothing it had is fetched again")
        #expect(relaunched.accountChanges.isEmpty, "the same user: no account change")
        #expect(phone.fake.requests(of: .recordZoneChanges).isEmpty)
        #expect(phone.fake.requests(of: .saveSubscription).isEmpty, "subscribed already")
        guard case .databaseChanges(let token)? = phone.fake.requests(of: .databaseChanges).first else {
            Issue.record("no database fetch: \(phone.fake.requests)")
            return
        }
        #expect(token != nil, "the saved database token")

        try await second.sendChanges()
        #expect(phone.fake.record(named: "draft", in: notesZone)?["text"] as? String == "typed offline")
        #expect(second.state.pendingRecordZoneChanges.isEmpty)
    }

    /// A stateUpdate follows the app's own add, so a state saved from it holds the change.
    @Test func addingAPendingChangeDeliversAStateUpdateThatHoldsIt() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        let id = harness.write("day-1", "entry 1", on: engine)
        await harness.waitUntil { log in log.state?.pendingRecordZoneChanges() == [CKSyncEngine.PendingRecordZoneChange.saveRecord(id)] }

        let state = try #require(harness.lastState)
        let relaunched = EngineHarness(fake: harness.fake, clock: harness.clock)
        let second = CKSyncEngine(relaunched.configuration(state: state))
        #expect(second.state.pendingRecordZoneChanges == [.saveRecord(id)])
        withExtendedLifetime(engine) {}
    }

    @Test func anAutomaticEngineSendsWhatItsRestoredStateHoldsPending() async throws {
        let quitting = EngineHarness()
        quitting.fake.serverSaveZone(notesZone)
        let before = CKSyncEngine(quitting.configuration())
        quitting.write("offline", "typed offline", on: before)
        let saved = before.state.serialization

        let relaunched = EngineHarness(fake: quitting.fake, clock: quitting.clock)
        relaunched.remember("offline", "typed offline")
        let engine = CKSyncEngine(relaunched.configuration(state: saved, automaticallySync: true))
        await relaunched.clock.waitForSleepers()
        #expect(relaunched.fake.requests(of: .modifyRecords).isEmpty, "not before the send delay")
        relaunched.clock.advance(by: 0.1)
        await relaunched.waitFor("didSendChanges")

        #expect(relaunched.fake.record(named: "offline", in: notesZone)?["text"] as? String == "typed offline")
        #expect(relaunched.sendReasons == [.scheduled], "sent without another edit or a manual send")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// A change a `retryAfter` held when the app quit: the relaunched engine sends what is free at
    /// once, and the held change only once its time came.
    @Test func aHeldChangeInARestoredStateIsSentOnlyOnceItsRetryAfterPassed() async throws {
        let quitting = EngineHarness()
        quitting.fake.serverSaveZone(notesZone)
        let before = CKSyncEngine(quitting.configuration())
        let busy = quitting.write("busy", "held by the server", on: before)
        quitting.fake.failRecord(named: "busy", with: .scripted(.zoneBusy, retryAfter: 30))
        _ = try? await before.sendChanges()
        let saved = before.state.serialization
        #expect(saved.pendingRecordZoneChanges() == [.saveRecord(busy)])

        let relaunched = EngineHarness(fake: quitting.fake, clock: quitting.clock)
        relaunched.remember("busy", "held by the server")
        let engine = CKSyncEngine(relaunched.configuration(state: saved, automaticallySync: true))
        // A send at once (after the send delay), and one when the hold ends.
        await relaunched.clock.waitForSleepers(2)
        relaunched.clock.advance(by: 0.1)
        await relaunched.waitFor("didSendChanges")
        #expect(relaunched.fake.requests(of: .modifyRecords).count == 1, "still held: nothing sent")
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(busy)])

        relaunched.clock.advance(by: 31)
        await relaunched.waitFor("didSendChanges", count: 2)
        #expect(relaunched.fake.requests(of: .modifyRecords).count == 2)
        #expect(relaunched.fake.record(named: "busy", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
