import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// `automaticallySync`: the engine fetches when it starts, sends 100 ms after changes are added,
/// fetches when pushed, and tries failed work again after a back-off — every wait on the clock
/// the test holds, so each step is seen waiting, then taken when the test moves time on.
@Suite(.timeLimit(.minutes(1))) struct EngineAutomaticTests {
    @Test func anAutomaticEngineFetchesWhenItStartsAndSavesItsSubscription() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("waiting", "from the laptop"))
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")

        #expect(harness.text(of: "waiting") == "from the laptop")
        #expect(harness.fetchReasons == [.scheduled])
        #expect(harness.fake.subscriptionIDs == ["CKSyncEngine-private"])
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges.isEmpty)
    }

    @Test func anAddedChangeIsSentOnceTheSendDelayPassed() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")

        harness.write("ping", "are you there?", on: engine)
        await harness.clock.waitForSleepers()
        #expect(harness.fake.requests(of: .modifyRecords).isEmpty, "not before the send delay")
        harness.clock.advance(by: 0.1)
        await harness.waitFor("didSendChanges")

        #expect(harness.fake.record(named: "ping", in: notesZone)?["text"] as? String == "are you there?")
        #expect(harness.sendReasons == [.scheduled])
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aPushFetchesAndTheSubscriptionIsNotSavedAgain() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")
        await harness.fake.waitForListeners()

        harness.fake.serverSave(note("remote", "from the tablet"))
        harness.fake.push()
        await harness.waitFor("didFetchChanges", count: 2)

        #expect(harness.fetchedNames == ["remote"])
        #expect(harness.fetchReasons == [.scheduled, .scheduled])
        #expect(harness.fake.requests(of: .saveSubscription).count == 1, "once per account")
        #expect(engine.state.zoneIDsWithUnfetchedServerChanges.isEmpty)
    }

    /// A fetch that fails (a server restarting) is tried again on its own after a second's
    /// back-off — not before.
    @Test func aFailedFetchIsTriedAgainAfterTheBackOff() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("groceries", "milk"))
        harness.fake.failNext(.databaseChanges, with: CKError(.internalError, "the server is restarting"))
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")
        await harness.clock.waitForSleepers()
        #expect(harness.fake.requests(of: .databaseChanges).count == 1)
        #expect(harness.text(of: "groceries") == nil)

        harness.clock.advance(by: 0.5)
        #expect(harness.clock.sleeperCount == 1, "the back-off is a second")
        harness.clock.advance(by: 0.5)
        await harness.waitFor("didFetchChanges", count: 2)
        #expect(harness.fake.requests(of: .databaseChanges).count == 2)
        #expect(harness.text(of: "groceries") == "milk")
        #expect(harness.fetchReasons == [.scheduled, .scheduled])
        withExtendedLifetime(engine) {}
    }

    /// Changes a refused token kept pending are sent again after a back-off, without another
    /// edit — and the engine asks who is signed in before it sends them.
    @Test func changesKeptPendingAreSentAgainAfterTheBackOffAskingTheAccountFirst() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")
        harness.fake.failNext(.modifyRecords, with: CKError(.notAuthenticated, "the token was refused"))
        let id = harness.write("a", on: engine)

        await harness.clock.waitForSleepers()
        harness.clock.advance(by: 0.1)
        await harness.waitFor("didSendChanges")
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(id)])
        await harness.clock.waitForSleepers()
        let before = harness.fake.requests.count

        harness.clock.advance(by: 1)
        await harness.waitFor("didSendChanges", count: 2)
        #expect(Array(harness.fake.requests[before...]) == [.userRecordID, .modifyRecords(saving: ["a"], deleting: [], atomically: false)])
        #expect(harness.fake.record(named: "a", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
        #expect(harness.sendReasons == [.scheduled, .scheduled])
    }

    /// A record answered `zoneBusy` with a `retryAfter` of 30 s: what was free is saved at once,
    /// the held one is sent on its own when the clock passes its time, not a moment before.
    @Test func aHeldChangeIsSentOnItsOwnWhenTheClockPassesItsRetryAfter() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration(automaticallySync: true))
        await harness.waitFor("didFetchChanges")
        harness.fake.failRecord(named: "busy", with: .scripted(.zoneBusy, retryAfter: 30))
        harness.write(["busy", "free"], on: engine)

        await harness.clock.waitForSleepers()
        harness.clock.advance(by: 0.1)
        await harness.waitFor("didSendChanges")
        #expect(harness.failedSaveCodes == ["busy": .zoneBusy])
        #expect(harness.fake.record(named: "free", in: notesZone) != nil)
        await harness.clock.waitForSleepers()

        harness.clock.advance(by: 29)
        #expect(harness.clock.sleeperCount == 1, "held until its retryAfter")
        #expect(harness.fake.requests(of: .modifyRecords).count == 1)
        harness.clock.advance(by: 2)
        await harness.waitFor("didSendChanges", count: 2)
        #expect(harness.fake.requests(of: .modifyRecords).count == 2)
        #expect(harness.fake.record(named: "busy", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
