import Foundation
import Testing

@testable import StratusCloudKit

/// The engine's rules that need no server: which refusals it retries itself (they stay pending,
/// never final to the app), and how the pending list keeps its order.
@Suite struct SyncEngineRulesTests {
    static let zone = CKRecordZone.ID(zoneName: "Notes")
    static func save(_ name: String) -> CKSyncEngine.PendingRecordZoneChange { .saveRecord(CKRecord.ID(recordName: name, zoneID: zone)) }

    @Test func theCodesApplesEngineRetriesStayPending() {
        let retried: [CKError.Code] = [
            .notAuthenticated, .accountTemporarilyUnavailable, .networkFailure, .networkUnavailable, .requestRateLimited,
            .serviceUnavailable, .zoneBusy, .operationCancelled,
        ]
        for code in retried { #expect(CKSyncEngine.retriesItself(CKError(code, "x")), "\(code)") }
        for code in [CKError.Code.permissionFailure, .serverRecordChanged, .unknownItem, .invalidArguments, .zoneNotFound] {
            #expect(!CKSyncEngine.retriesItself(CKError(code, "x")), "\(code)")
        }
        // Whatever its code, an item its failed request left unanswered stays pending.
        #expect(CKSyncEngine.retriesItself(CKError.unanswered(CKError(.serverRejectedRequest, "500"))))
    }

    @Test func aChangeAddedAgainKeepsItsPlaceWithANewerSequence() {
        var state = CKSyncEngine.State.Serialization()
        state.add([Self.save("parent"), Self.save("child")])
        let sent = state.sequence(of: Self.save("parent"))
        state.add([Self.save("parent")])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), Self.save("child")])
        // The answer to the parent sent before it was added again does not remove the newer one.
        state.remove(answered: [Self.save("parent"): sent ?? 0])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), Self.save("child")])
        state.add([.deleteRecord(CKRecord.ID(recordName: "child", zoneID: Self.zone))])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), .deleteRecord(CKRecord.ID(recordName: "child", zoneID: Self.zone))])
    }
}

/// A change a transient failure held back stays held through a saved state (a relaunch waits
/// out the server's `retryAfter` too), and goes once its time has come.
@Suite struct SyncEngineRetryHoldTests {
    @Test func aHeldChangeStaysHeldThroughASavedState() throws {
        let change = SyncEngineRulesTests.save("throttled")
        var state = CKSyncEngine.State.Serialization()
        state.add([change, SyncEngineRulesTests.save("free")])
        let now = Date(timeIntervalSince1970: 1_000)
        state.hold(change, until: now.addingTimeInterval(30))
        var relaunched = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: JSONEncoder().encode(state))
        #expect(relaunched.held(at: now) == [change])
        #expect(relaunched.longestHold(at: now) == 30)
        #expect(relaunched.held(at: now.addingTimeInterval(31)).isEmpty)
        #expect(relaunched.longestHold(at: now.addingTimeInterval(31)) == nil)
    }

    @Test func aStateSavedBeforeHoldsExistedStillDecodes() throws {
        var state = CKSyncEngine.State.Serialization()
        state.add([SyncEngineRulesTests.save("a")])
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(state)) as? [String: Any] ?? [:]
        json["retryAt"] = nil
        let old = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(old.pendingRecordZoneChanges() == [SyncEngineRulesTests.save("a")])
    }
}
