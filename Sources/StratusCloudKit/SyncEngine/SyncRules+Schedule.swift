import Foundation

/// What a send does next, and when work that failed is tried again. Apple's engine "re-schedules
/// sync tasks for retryable errors such as network failures or server throttles": an automatic
/// engine tries a failed fetch, a failed subscription and changes kept pending again on its own,
/// each after a back-off that grows while the failures go on (waited on the engine's clock).
extension SyncRules {
    // MARK: - A send's steps

    /// What a send does next.
    enum SendStep: Hashable, Sendable {
        /// Send these zone changes first: pending, in the send's scope and not yet sent in this
        /// send — those added while it runs included (Apple sends them before the next batch).
        case sendZones([CKSyncEngine.PendingDatabaseChange])
        /// Ask the delegate for its next batch of record changes.
        case askForBatch
        /// The send is over.
        case end
    }

    /// The next step of a send: it ends once a request failed as a whole (`requestFailed`);
    /// zone changes it has not sent (`sentZones`) go before any record batch; then the delegate's
    /// batches, until it has none (`batchesDone`).
    static func nextSendStep(
        pendingZones: [CKSyncEngine.PendingDatabaseChange], scope: CKSyncEngine.SendChangesOptions.Scope,
        sentZones: Set<CKSyncEngine.PendingDatabaseChange>, batchesDone: Bool, requestFailed: Bool
    ) -> SendStep {
        guard !requestFailed else { return .end }
        let zones = pendingZones.filter { change in scope.contains(change) && !sentZones.contains(change) }
        if !zones.isEmpty { return .sendZones(zones) }
        return batchesDone ? .end : .askForBatch
    }

    // MARK: - Trying again

    /// How long a call that failed with `error` for the `attempt`-th time (1: the first) waits
    /// before it is made again within the same fetch or send, or `nil` when it is not: only
    /// what CloudKit calls transient (the network, an unavailable service, rate limits, a busy
    /// zone), at most `attempts` times, after the server's `retryAfter` when it gave one, else a
    /// fifth of a second doubled each time — at most 30 s.
    static func inlineRetryDelay(after error: CKError, attempt: Int, attempts: Int) -> Double? {
        guard error.code.isTransient, attempt < attempts else { return nil }
        return min(error.retryAfterSeconds ?? 0.2 * Double(1 << min(attempt, 16)), 30)
    }

    /// Work an automatic engine tries again on its own when it fails (one retry of each waits
    /// at a time).
    enum AutomaticWork: Hashable, Sendable {
        case fetch
        case send
        case subscription
    }

    /// The longest an automatic engine waits before trying failed work again: five minutes.
    static let longestBackOff: Double = 300

    /// The wait before trying work again after its `attempt`-th failure in a row (1: the first):
    /// a second, doubled each time, at most ``longestBackOff``.
    static func backOff(attempt: Int) -> Double {
        let doublings = min(max(attempt, 1) - 1, 16)
        return min(Double(1 << doublings), longestBackOff)
    }

    /// How long an automatic engine waits before a fetch (or the subscription's save) that
    /// failed with `error` for the `attempt`-th time in a row is tried again: the back-off, or
    /// the server's `retryAfter` when it asks for longer. Every failure is tried again — the
    /// network, a server restarting, no account yet — since the engine "syncs on its own".
    static func retryDelay(after error: CKError, attempt: Int) -> Double {
        max(error.retryAfterSeconds ?? 0, backOff(attempt: attempt))
    }

    /// When an automatic engine sends again after a send that kept changes pending for a reason
    /// no retry time covers — a refused token, a request failing as a whole, an item left
    /// unanswered, a cancellation, a send that could not begin (`keptPending`) — in seconds:
    /// after the back-off of the `failures`-th such send in a row, so they do not wait for the
    /// next `add` or a relaunch. `nil`: nothing to send again (what a transient failure held
    /// back has its own send at its retry time).
    static func resendDelay(keptPending: Bool, failures: Int) -> Double? {
        keptPending ? backOff(attempt: failures) : nil
    }
}
