import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// An edit the app makes while the engine is busy — building a batch, or waiting out a send the
/// app then cancels — is never lost: it stays pending, reaches the server on a later send, and is
/// in the state the app persists.
@Suite(.timeLimit(.minutes(1))) struct EngineEditRaceTests {
    /// The delegate's record provider read "v1"; the app saves "v2" before the delegate returns.
    /// The server's answer to "v1" must not take the newer edit off the list.
    @Test func anEditMadeWhileTheBatchIsBuiltStaysPendingAndReachesTheServer() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let id = harness.write("a", "v1", on: engine)
        harness.duringNextBatch { engine in harness.write("a", "v2", on: engine) }
        try await engine.sendChanges()
        #expect(harness.fake.record(named: "a", in: notesZone)?["text"] as? String == "v1")
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(id)], "the newer edit is still to send")

        try await engine.sendChanges()
        #expect(harness.fake.record(named: "a", in: notesZone)?["text"] as? String == "v2")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// `cancelOperations()` cancels syncs, not the report of what the app added: the state the app
    /// persists holds the change, and an engine relaunched from it sends it.
    @Test func aChangeAddedBeforeCancelOperationsIsStillInTheStateTheAppPersists() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("a", on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.serviceUnavailable, "restarting"))
        let send = Task { try await engine.sendChanges() }
        // The send waits out the failure, holding the engine: "b"'s report waits its turn.
        await harness.clock.waitForSleepers()
        let b = harness.write("b", on: engine)
        await engine.cancelOperations()
        _ = try? await send.value

        let reported = await harness.waitUntil(within: 30) { $0.state?.pendingRecordZoneChanges().contains(.saveRecord(b)) == true }
        #expect(reported, "the stateUpdate holding b was delivered")
        let relaunched = CKSyncEngine(harness.configuration(state: harness.lastState))
        #expect(relaunched.state.pendingRecordZoneChanges.contains(.saveRecord(b)))
        try await relaunched.sendChanges()
        #expect(harness.fake.record(named: "b", in: notesZone) != nil)
    }

    /// The version the server refused as too large is not the one the app holds now: the newer,
    /// smaller one is not set aside with it, and goes on the next send.
    @Test func aRecordAddedAgainWhileItsTooLargeVersionWasSentIsNotSetAside() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("big", String(repeating: "b", count: 1_000), on: engine)
        harness.fake.failRecord(named: "big", with: CKError(.limitExceeded, "the record is larger than the server takes"))
        harness.duringNextBatch { engine in harness.write("big", "smaller", on: engine) }
        _ = try? await engine.sendChanges()
        #expect(harness.failedSaveCodes == ["big": .limitExceeded])

        try await engine.sendChanges()
        #expect(harness.fake.record(named: "big", in: notesZone)?["text"] as? String == "smaller")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
