import Foundation
import Synchronization
import Testing

@testable import StratusCloudKit

/// The engine's state, without a server: how the pending list keeps its order, and that the
/// app's own changes to it are reported.
@Suite struct SyncEngineRulesTests {
    static let zone = CKRecordZone.ID(zoneName: "Notes")
    static func save(_ name: String) -> CKSyncEngine.PendingRecordZoneChange { .saveRecord(CKRecord.ID(recordName: name, zoneID: zone)) }

    @Test func aChangeAddedAgainKeepsItsPlaceWithANewerSequence() {
        var state = CKSyncEngine.State.Serialization()
        state.add([Self.save("parent"), Self.save("child")])
        let sent = state.sequences(of: [Self.save("parent")], addedBefore: state.sequenceMark)[Self.save("parent")]
        state.add([Self.save("parent")])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), Self.save("child")])
        // The answer to the parent sent before it was added again does not remove the newer one.
        state.remove(answered: [Self.save("parent"): sent ?? 0])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), Self.save("child")])
        state.add([.deleteRecord(CKRecord.ID(recordName: "child", zoneID: Self.zone))])
        #expect(state.pendingRecordZoneChanges() == [Self.save("parent"), .deleteRecord(CKRecord.ID(recordName: "child", zoneID: Self.zone))])
    }

    @Test func aChangeAddedWhileTheBatchIsBuiltHasNoSequenceToRemove() {
        var state = CKSyncEngine.State.Serialization()
        state.add([Self.save("a"), Self.save("b")])
        let mark = state.sequenceMark
        // The app saves "a" again while the delegate builds the batch (its record perhaps read before).
        state.add([Self.save("a")])
        let sequences = state.sequences(of: [Self.save("a"), Self.save("b")], addedBefore: mark)
        #expect(sequences[Self.save("a")] == nil)
        #expect(sequences[Self.save("b")] != nil)
        state.remove(answered: [Self.save("a"): sequences[Self.save("a")] ?? 0, Self.save("b"): sequences[Self.save("b")] ?? 0])
        #expect(state.pendingRecordZoneChanges() == [Self.save("a")])
    }

    @Test func aChangeSetAsideWaitsAtTheEndUntilAddedAgainAndIsKeptInTheSerialization() throws {
        var state = CKSyncEngine.State.Serialization()
        state.add([Self.save("big"), Self.save("small")])
        // Added again since it was sent: the newer one is not set aside.
        state.setAside(Self.save("big"), sent: 0)
        #expect(state.held(at: Date()).isEmpty)
        state.setAside(Self.save("big"), sent: 1)
        #expect(state.pendingRecordZoneChanges() == [Self.save("small"), Self.save("big")])
        #expect(state.held(at: Date()) == [Self.save("big")])
        var decoded = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: JSONEncoder().encode(state))
        #expect(decoded.held(at: Date()) == [Self.save("big")])
        decoded.add([Self.save("big")])
        #expect(decoded.held(at: Date()).isEmpty, "added again: it goes with the next batch")
        state.remove(answered: [Self.save("small"): 2])
        #expect(state.held(at: Date()) == [Self.save("big")])
    }

    /// Apple: a state update "also happens when you change the state yourself" — removing
    /// changes and setting `hasPendingUntrackedChanges` included.
    @Test func everyChangeTheAppMakesToTheStateIsReported() {
        let state = CKSyncEngine.State(nil)
        let reports = Counter()
        state.onChange = { reports.increment() }
        state.add(pendingRecordZoneChanges: [Self.save("a")])
        state.remove(pendingRecordZoneChanges: [Self.save("a")])
        state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Self.zone))])
        state.remove(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: Self.zone))])
        state.hasPendingUntrackedChanges = true
        #expect(reports.value == 5)
        // Nothing to add or remove is no change.
        state.remove(pendingRecordZoneChanges: [])
        #expect(reports.value == 5)
    }
}

/// A count bumped from any thread.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
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
