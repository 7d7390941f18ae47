import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// What the engine retries itself — the network, a throttle, a busy zone, a refused token — on
/// a clock the test holds: a wait passes only when the test advances the clock, so nothing here
/// waits in real time, and what happens before a `retryAfter` is over is seen to not happen.
@Suite(.timeLimit(.minutes(1))) struct EngineRetryTests {
    @Test func aThrottledRequestIsSentAgainOnceItsRetryAfterHasPassed() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("a", on: engine)
        harness.fake.failNext(.modifyRecords, with: .scripted(.requestRateLimited, retryAfter: 5))
        let send = Task { try await engine.sendChanges() }

        await harness.clock.waitForSleepers()
        #expect(harness.fake.requests(of: .modifyRecords).count == 1)
        harness.clock.advance(by: 4)
        #expect(harness.clock.sleeperCount == 1, "still waiting out the server's retryAfter")
        #expect(harness.fake.requests(of: .modifyRecords).count == 1)
        harness.clock.advance(by: 1)
        try await send.value

        #expect(harness.fake.requests(of: .modifyRecords).count == 2)
        #expect(harness.fake.record(named: "a", in: notesZone) != nil)
        #expect(harness.failedSaves.isEmpty, "a retry the engine made itself is nothing to report")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aNetworkFailureIsRetriedAndTheSendSucceeds() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("a", on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.networkFailure, "the network went away"), times: 2)
        let send = Task { try await engine.sendChanges() }

        for _ in 0..<2 {
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: 1)
        }
        try await send.value
        #expect(harness.fake.requests(of: .modifyRecords).count == 3)
        #expect(harness.fake.record(named: "a", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// After its last retry the send throws the network's error; nothing was answered, so every
    /// change stays pending and none is reported refused.
    @Test func aNetworkThatStaysDownKeepsEveryChangePendingAndReportsNone() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let ids = harness.write(["a", "b"], on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.networkFailure, "the network is down"), times: 4)
        let send = Task { try await engine.sendChanges() }

        for _ in 0..<3 {
            await harness.clock.waitForSleepers()
            harness.clock.advance(by: 2)
        }
        let error = try await #require(throws: CKError.self) { try await send.value }
        #expect(error.code == .networkFailure)
        #expect(harness.fake.requests(of: .modifyRecords).count == 4)
        #expect(engine.state.pendingRecordZoneChanges == ids.map { CKSyncEngine.PendingRecordZoneChange.saveRecord($0) })
        #expect(harness.failedSaves.isEmpty)
        #expect(Array(harness.milestones.suffix(2)) == ["willSendChanges", "didSendChanges"], "didSendChanges although it failed")
    }

    /// A record the server answered with a transient error and a `retryAfter` is held: a send
    /// before that time leaves it out, one after it sends it.
    @Test func aChangeHeldByItsRetryAfterIsNotSentBeforeTheClockPassesIt() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let ids = harness.write(["busy", "free"], on: engine)
        harness.fake.failRecord(named: "busy", with: .scripted(.zoneBusy, retryAfter: 30))
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }

        #expect(error.code == .partialFailure)
        #expect(harness.failedSaveCodes == ["busy": .zoneBusy])
        #expect(harness.fake.record(named: "free", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(ids[0])], "held, not dropped")

        harness.clock.advance(by: 29)
        try await engine.sendChanges()
        #expect(harness.fake.requests(of: .modifyRecords).count == 1, "not before its retryAfter")

        harness.clock.advance(by: 2)
        try await engine.sendChanges()
        #expect(harness.fake.requests(of: .modifyRecords).count == 2)
        #expect(harness.fake.record(named: "busy", in: notesZone) != nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// A token the server refuses answers nothing: every change stays pending, nothing is
    /// reported refused or signed out, and the next send asks who is signed in before it sends.
    @Test func aRefusedTokenKeepsEveryChangeAndTheNextSendAsksWhoIsSignedInFirst() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("sent", on: engine)
        try await engine.sendChanges()

        harness.fake.failNext(.modifyRecords, with: CKError(.notAuthenticated, "the web auth token was revoked"))
        let kept = harness.write(["kept-1", "kept-2"], on: engine)
        let refused = try await #require(throws: CKError.self) { try await engine.sendChanges() }
        #expect(refused.code == .notAuthenticated)
        #expect(engine.state.pendingRecordZoneChanges == kept.map { CKSyncEngine.PendingRecordZoneChange.saveRecord($0) })
        #expect(harness.failedSaves.isEmpty)
        #expect(harness.accountChanges.count == 1, "a refused token is not an account change")

        let before = harness.fake.requests.count
        try await engine.sendChanges()
        let after = Array(harness.fake.requests[before...])
        #expect(after.first == .userRecordID, "\(after)")
        #expect(after.last == .modifyRecords(saving: ["kept-1", "kept-2"], deleting: [], atomically: false))
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// `cancelOperations()` while a send waits to retry: the send ends `operationCancelled`, its
    /// change stays pending and goes with the next send.
    @Test func cancellingASendWaitingToRetryKeepsItsChangesPending() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let id = harness.write("groceries", "milk", on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.serviceUnavailable, "the server is restarting"))
        let send = Task { try await engine.sendChanges() }

        await harness.clock.waitForSleepers()
        await engine.cancelOperations()
        let error = try await #require(throws: CKError.self) { try await send.value }
        #expect(error.code == .operationCancelled)
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(id)])
        #expect(harness.fake.requests(of: .modifyRecords).count == 1)

        try await engine.sendChanges()
        #expect(harness.fake.record(named: "groceries", in: notesZone)?["text"] as? String == "milk")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
