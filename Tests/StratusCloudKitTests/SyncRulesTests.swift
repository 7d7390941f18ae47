import Foundation
import Testing

@testable import StratusCloudKit

/// Every decision of the engine, on its pure core (``SyncRules``), with no server: what an
/// answer means for each change, what a failed request or fetch means, who is signed in, which
/// zone a fetch takes next, what an automatic engine sends at launch.
@Suite struct SyncRulesTests {
    static let now = Date(timeIntervalSince1970: 1_000_000)
    static let zone = CKRecordZone.ID(zoneName: "Notes")

    static func error(_ code: CKError.Code, retryAfter: Double? = nil) -> CKError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "x"]
        if let retryAfter { info[CKErrorRetryAfterKey] = retryAfter }
        return CKError(code, userInfo: info)
    }

    // MARK: - A change's answer

    @Test func aChangeTheServerTookLeavesTheList() {
        #expect(SyncRules.verdict(forChange: nil, now: Self.now) == .answered)
    }

    @Test(arguments: [CKError.Code.quotaExceeded, .permissionFailure, .serverRecordChanged, .unknownItem, .invalidArguments, .zoneNotFound])
    func aChangeRefusedForGoodIsReportedOnceAndLeavesTheList(code: CKError.Code) {
        #expect(SyncRules.verdict(forChange: Self.error(code), now: Self.now) == .answered)
    }

    @Test(arguments: [CKError.Code.notAuthenticated, .accountTemporarilyUnavailable, .operationCancelled, .batchRequestFailed])
    func aChangeRefusedForTheAccountOrACancellationStaysPending(code: CKError.Code) {
        #expect(SyncRules.retriesItself(Self.error(code)))
        #expect(SyncRules.verdict(forChange: Self.error(code), now: Self.now) == .keptPending)
    }

    @Test(arguments: [CKError.Code.networkFailure, .networkUnavailable, .requestRateLimited, .serviceUnavailable, .zoneBusy])
    func aTransientRefusalHoldsTheChangeUntilItsRetryTime(code: CKError.Code) {
        #expect(SyncRules.retriesItself(Self.error(code)))
        #expect(SyncRules.verdict(forChange: Self.error(code, retryAfter: 7), now: Self.now) == .heldUntil(Self.now.addingTimeInterval(7)))
        // Without the server's word, a second.
        #expect(SyncRules.verdict(forChange: Self.error(code), now: Self.now) == .heldUntil(Self.now.addingTimeInterval(1)))
    }

    @Test func anItemItsFailedRequestLeftUnansweredStaysPendingWhateverTheCode() {
        for code in [CKError.Code.serverRejectedRequest, .internalError, .permissionFailure] {
            let unanswered = CKError.unanswered(Self.error(code))
            #expect(SyncRules.verdict(forChange: unanswered, now: Self.now) == .keptPending, "\(code)")
        }
        #expect(SyncRules.verdict(forChange: CKError.unanswered(Self.error(.zoneBusy, retryAfter: 2)), now: Self.now) == .heldUntil(Self.now.addingTimeInterval(2)))
    }

    // MARK: - A request failing as a whole

    /// No change leaves the list for a size: a request too large is split where it can be; what
    /// cannot (one change, one zone's atomic changes) is reported failed and kept pending.
    @Test func aRequestTooLargeIsSplitWhereItCanBeElseEachChangeIsReportedAndKept() {
        let tooLarge = Self.error(.limitExceeded)
        #expect(SyncRules.verdict(forRequest: tooLarge, splittable: true, now: Self.now) == .split)
        #expect(SyncRules.verdict(forRequest: tooLarge, splittable: false, now: Self.now) == .refuseEach)
        // Each change given the request's refusal waits for the delegate to batch it smaller.
        #expect(SyncRules.verdict(forChange: tooLarge, refusedTogether: true, now: Self.now) == .keptPending)
        // One change alone, too large for any request: set aside as a record too large is.
        #expect(SyncRules.verdict(forChange: tooLarge, refusedTogether: false, now: Self.now) == .setAside)
        #expect(SyncRules.refusedTogether(CKSyncEngine.RecordZoneChangeBatch(recordsToSave: [note("a"), note("b")])))
        #expect(!SyncRules.refusedTogether(CKSyncEngine.RecordZoneChangeBatch(recordsToSave: [note("a")])))
    }

    @Test func aRefusedTokenKeepsEveryChangeAndChecksTheAccountBeforeTheNextSend() {
        #expect(SyncRules.verdict(forRequest: Self.error(.notAuthenticated), splittable: true, now: Self.now) == .keptPending(retryAt: nil, checkAccount: true))
    }

    @Test func aFailedRequestKeepsEveryChangeRetryingATransientOneAfterItsWait() {
        #expect(
            SyncRules.verdict(forRequest: Self.error(.serviceUnavailable, retryAfter: 3), splittable: true, now: Self.now)
                == .keptPending(retryAt: Self.now.addingTimeInterval(3), checkAccount: false)
        )
        for code in [CKError.Code.internalError, .serverRejectedRequest, .operationCancelled, .permissionFailure] {
            #expect(SyncRules.verdict(forRequest: Self.error(code), splittable: true, now: Self.now) == .keptPending(retryAt: nil, checkAccount: false))
        }
    }

    // MARK: - Fetching

    @Test func anExpiredTokenStartsTheFetchOverAndAnyOtherFailureKeepsTheToken() {
        #expect(SyncRules.verdict(forZoneFetch: Self.error(.changeTokenExpired), hadToken: true) == .startOver)
        #expect(SyncRules.verdict(forZoneFetch: Self.error(.changeTokenExpired), hadToken: false) == .fail)
        #expect(SyncRules.verdict(forDatabaseFetch: Self.error(.changeTokenExpired), hadToken: true) == .startOver)
        #expect(SyncRules.verdict(forDatabaseFetch: Self.error(.changeTokenExpired), hadToken: false) == .fail)
        for code in [CKError.Code.networkFailure, .serviceUnavailable, .notAuthenticated, .internalError] {
            #expect(SyncRules.verdict(forZoneFetch: Self.error(code), hadToken: true) == .fail, "\(code)")
            #expect(SyncRules.verdict(forDatabaseFetch: Self.error(code), hadToken: true) == .fail, "\(code)")
        }
        #expect(SyncRules.verdict(forDatabaseFetch: Self.error(.zoneNotFound), hadToken: true) == .fail)
    }

    @Test func aZoneGoneMidFetchIsReportedWithWhy() {
        #expect(SyncRules.verdict(forZoneFetch: Self.error(.zoneNotFound), hadToken: true) == .zoneGone(.deleted))
        #expect(SyncRules.verdict(forZoneFetch: Self.error(.userDeletedZone), hadToken: false) == .zoneGone(.purged))
        let reset = CKError(.zoneNotFound, userInfo: [CKErrorUserDidResetEncryptedDataKey: true])
        #expect(SyncRules.verdict(forZoneFetch: reset, hadToken: true) == .zoneGone(.encryptedDataReset))
    }

    @Test func aFetchTakesPrioritizedZonesFirstThenTheFeedsOrderWithinScope() {
        let a = CKRecordZone.ID(zoneName: "A"), b = CKRecordZone.ID(zoneName: "B"), c = CKRecordZone.ID(zoneName: "C")
        var options = CKSyncEngine.FetchChangesOptions()
        #expect(SyncRules.nextZone(unfetched: [a, b, c], options: options, finished: []) == a)
        options.prioritizedZoneIDs = [c]
        #expect(SyncRules.nextZone(unfetched: [a, b, c], options: options, finished: []) == c)
        #expect(SyncRules.nextZone(unfetched: [a, b, c], options: options, finished: [c]) == a)
        options.scope = .allExcluding([a])
        #expect(SyncRules.nextZone(unfetched: [a, b, c], options: options, finished: [c]) == b)
        #expect(SyncRules.nextZone(unfetched: [a, b, c], options: options, finished: [b, c]) == nil)
        // A prioritized zone the feed did not name is not fetched.
        options = CKSyncEngine.FetchChangesOptions(scope: .zoneIDs([b]))
        options.prioritizedZoneIDs = [c]
        #expect(SyncRules.nextZone(unfetched: [a, b], options: options, finished: []) == b)
    }

    // MARK: - The account

    @Test func theAccountFoundAgainstTheStatesOwn() {
        #expect(SyncRules.accountVerdict(previous: nil, current: "_alice") == .signIn(current: "_alice"))
        #expect(SyncRules.accountVerdict(previous: "_alice", current: "_alice") == .unchanged)
        #expect(SyncRules.accountVerdict(previous: "_alice", current: "_bob") == .switchAccounts(previous: "_alice", current: "_bob"))
        #expect(SyncRules.accountVerdict(previous: "_alice", current: nil) == .signOut(previous: "_alice"))
        #expect(SyncRules.accountVerdict(previous: nil, current: nil) == .unchanged)
    }

    // MARK: - Launch

    @Test func anAutomaticEngineSendsWhatItsRestoredStateHoldsPending() {
        var state = CKSyncEngine.State.Serialization()
        #expect(SyncRules.launchSends(state, now: Self.now).isEmpty)
        state.hasPendingUntrackedChanges = true
        #expect(SyncRules.launchSends(state, now: Self.now) == [0])
        state = CKSyncEngine.State.Serialization()
        state.add([CKSyncEngine.PendingDatabaseChange.saveZone(CKRecordZone(zoneID: Self.zone))])
        #expect(SyncRules.launchSends(state, now: Self.now) == [0])
        let held = CKSyncEngine.PendingRecordZoneChange.saveRecord(CKRecord.ID(recordName: "throttled", zoneID: Self.zone))
        state.add([held])
        state.hold(held, until: Self.now.addingTimeInterval(30))
        // At once for what is free, and again when the held change may go.
        #expect(SyncRules.launchSends(state, now: Self.now) == [0, 30])
    }

    // MARK: - The clock

    @Test func anAcceleratedClockRunsRateTimesAsFastAsTheRealOne() {
        let real = Date()
        let later = real.addingTimeInterval(0.02)
        // 20 ms of real time are 20 s of a clock a thousand times as fast.
        let passed = SyncClock.time(atReal: later, rate: 1_000).timeIntervalSince(SyncClock.time(atReal: real, rate: 1_000))
        #expect(abs(passed - 20) < 0.001)
        #expect(SyncClock.time(atReal: real, rate: 1) == real)
        #expect(SyncClock.system.rate == 1)
        #expect(SyncClock(rate: 0).rate == 1)
    }

    @Test func aWaitOnAnAcceleratedClockTakesItsRealShare() {
        // A server's retryAfter of 5 s on a clock fifty times as fast, after 100 ms of real time.
        #expect(SyncClock.realWait(seconds: 5, plus: .milliseconds(100), rate: 50) == .milliseconds(200))
        #expect(SyncClock.realWait(seconds: -3, plus: .zero, rate: 1) == .zero)
    }
}
