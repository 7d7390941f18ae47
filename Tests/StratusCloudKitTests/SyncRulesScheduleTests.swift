import Foundation
import Testing

@testable import StratusCloudKit

/// What a send does next and when an automatic engine tries failed work again (issue 49, items 5
/// and 7), on the engine's pure core: zone changes go first in a send, those added while it runs
/// included; a failed fetch, subscription or send is tried again after a back-off; a record whose
/// asset is gone does not hold its zone back.
@Suite struct SyncRulesScheduleTests {
    static let notes = CKSyncEngine.PendingDatabaseChange.saveZone(CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Notes")))
    static let photos = CKSyncEngine.PendingDatabaseChange.saveZone(CKRecordZone(zoneID: CKRecordZone.ID(zoneName: "Photos")))
    static let old = CKSyncEngine.PendingDatabaseChange.deleteZone(CKRecordZone.ID(zoneName: "Old"))

    static func error(_ code: CKError.Code, retryAfter: Double? = nil) -> CKError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "x"]
        if let retryAfter { info[CKErrorRetryAfterKey] = retryAfter }
        return CKError(code, userInfo: info)
    }

    // MARK: - A send's steps (item 7)

    @Test func zoneChangesGoFirstAndOnesAddedDuringTheSendGoBeforeTheNextBatch() {
        func step(_ pending: [CKSyncEngine.PendingDatabaseChange], sent: Set<CKSyncEngine.PendingDatabaseChange>, done: Bool = false) -> SyncRules.SendStep {
            SyncRules.nextSendStep(pendingZones: pending, scope: .all, sentZones: sent, batchesDone: done, requestFailed: false)
        }
        // The send starts with the zone changes pending.
        #expect(step([Self.notes, Self.old], sent: []) == .sendZones([Self.notes, Self.old]))
        // Sent (one kept pending after a failure is not sent again in this send): records next.
        #expect(step([Self.old], sent: [Self.notes, Self.old]) == .askForBatch)
        // The app adds a zone while a batch is under way: it goes before the next batch, in this send.
        #expect(step([Self.old, Self.photos], sent: [Self.notes, Self.old]) == .sendZones([Self.photos]))
        // And after the last batch too, before the send ends.
        #expect(step([Self.photos], sent: [Self.notes], done: true) == .sendZones([Self.photos]))
        #expect(step([], sent: [Self.notes, Self.photos], done: true) == .end)
    }

    @Test func aSendTakesOnlyZonesInItsScopeAndEndsOnceARequestFailedAsAWhole() {
        let scope = CKSyncEngine.SendChangesOptions.Scope.zoneIDs([CKRecordZone.ID(zoneName: "Photos")])
        #expect(SyncRules.nextSendStep(pendingZones: [Self.notes, Self.photos], scope: scope, sentZones: [], batchesDone: false, requestFailed: false) == .sendZones([Self.photos]))
        #expect(SyncRules.nextSendStep(pendingZones: [Self.notes], scope: scope, sentZones: [], batchesDone: false, requestFailed: false) == .askForBatch)
        #expect(SyncRules.nextSendStep(pendingZones: [Self.photos], scope: .all, sentZones: [], batchesDone: false, requestFailed: true) == .end)
    }

    // MARK: - Trying again (item 5)

    @Test func theBackOffDoublesFromASecondUpToFiveMinutes() {
        #expect((1...10).map(SyncRules.backOff(attempt:)) == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300])
        #expect(SyncRules.backOff(attempt: 0) == 1)
        #expect(SyncRules.backOff(attempt: 1_000) == 300)
    }

    /// No network at launch, a server restarting, no account yet: a failed automatic fetch (or
    /// subscription) is tried again, after the back-off or the server's longer `retryAfter`.
    @Test func aFailedFetchIsTriedAgainAfterTheBackOffOrTheServersLongerWait() {
        for code in [CKError.Code.networkUnavailable, .networkFailure, .serviceUnavailable, .notAuthenticated, .internalError] {
            #expect(SyncRules.retryDelay(after: Self.error(code), attempt: 1) == 1, "\(code)")
            #expect(SyncRules.retryDelay(after: Self.error(code), attempt: 4) == 8, "\(code)")
        }
        #expect(SyncRules.retryDelay(after: Self.error(.requestRateLimited, retryAfter: 30), attempt: 1) == 30)
        #expect(SyncRules.retryDelay(after: Self.error(.requestRateLimited, retryAfter: 2), attempt: 4) == 8)
    }

    /// Changes kept pending for a reason no retry time covers are sent again on a schedule, not
    /// only on the next `add` or a relaunch; a send that kept nothing so schedules nothing.
    @Test func changesKeptPendingAreSentAgainAfterABackOff() {
        #expect(SyncRules.resendDelay(keptPending: false, failures: 0) == nil)
        #expect(SyncRules.resendDelay(keptPending: true, failures: 1) == 1)
        #expect(SyncRules.resendDelay(keptPending: true, failures: 3) == 4)
        #expect(SyncRules.resendDelay(keptPending: true, failures: 50) == 300)
    }

    @Test func theSubscriptionIsSavedOncePerSignedInUser() {
        #expect(SyncRules.needsSubscription(user: "_alice", subscribedUser: nil))
        #expect(!SyncRules.needsSubscription(user: "_alice", subscribedUser: "_alice"))
        #expect(SyncRules.needsSubscription(user: "_bob", subscribedUser: "_alice"))
        #expect(!SyncRules.needsSubscription(user: nil, subscribedUser: nil))
    }

    // MARK: - A record whose asset did not arrive (item 5)

    @Test func aRecordWhoseAssetIsGoneIsSkippedAndItsZoneAdvances() {
        let zone = CKRecordZone.ID(zoneName: "Photos")
        let first = CKRecord.ID(recordName: "a-photo", zoneID: zone)
        let second = CKRecord.ID(recordName: "b-photo", zoneID: zone)
        #expect(SyncRules.verdict(forPage: [:]) == .advance(skipped: []))
        #expect(SyncRules.verdict(forPage: [second: Self.error(.assetNotAvailable)]) == .advance(skipped: [second]))
        #expect(SyncRules.verdict(forPage: [second: Self.error(.unknownItem), first: Self.error(.assetFileNotFound)]) == .advance(skipped: [first, second]))
    }

    @Test func aRecordThatFetchingAgainMayBringKeepsTheZonesToken() {
        let zone = CKRecordZone.ID(zoneName: "Photos")
        let first = CKRecord.ID(recordName: "a-photo", zoneID: zone)
        let second = CKRecord.ID(recordName: "b-photo", zoneID: zone)
        let dropped = Self.error(.networkFailure)
        #expect(SyncRules.verdict(forPage: [first: Self.error(.assetNotAvailable), second: dropped]) == .keepToken(dropped))
        for code in [CKError.Code.serviceUnavailable, .notAuthenticated, .internalError, .operationCancelled] {
            #expect(SyncRules.verdict(forPage: [first: Self.error(code)]) == .keepToken(Self.error(code)), "\(code)")
        }
        let unanswered = CKError.unanswered(Self.error(.unknownItem))
        #expect(SyncRules.verdict(forPage: [first: unanswered]) == .keepToken(unanswered))
    }
}
