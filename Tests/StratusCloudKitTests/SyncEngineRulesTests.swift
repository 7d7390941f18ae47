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
