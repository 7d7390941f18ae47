import Foundation

/// The engine's decisions, apart from its requests: what the server's answer means for each
/// pending change, what a failed fetch means for a token, who is signed in now, which zone a
/// fetch takes next and what an automatic engine sends at launch. Plain values from plain inputs
/// (the time included), so every rule is tested without a server — the way `ZoneBatchEngine`
/// decides apart from the stores. ``CKSyncEngine`` does the I/O and applies them.
enum SyncRules {
    // MARK: - Sending

    /// What an answer means for one pending change.
    enum ChangeVerdict: Hashable, Sendable {
        /// The server answered for good — saved, deleted, or refused for a reason sending again
        /// cannot fix (`quotaExceeded` included, as Apple documents for errors it does not retry):
        /// the change leaves the list; a refusal is reported to the delegate once.
        case answered
        /// Kept pending, for the next send.
        case keptPending
        /// Kept pending, not sent before this time (the server asked to wait).
        case heldUntil(Date)
    }

    /// What one change's answer means: `error` is `nil` for a change the server took.
    static func verdict(forChange error: CKError?, now: Date) -> ChangeVerdict {
        guard let error else { return .answered }
        guard retriesItself(error) else { return .answered }
        return SyncRetry.isTransient(error) ? .heldUntil(now.addingTimeInterval(retryDelay(error))) : .keptPending
    }

    /// Whether a change refused with `error` is sent again by the engine itself — what Apple's
    /// engine retries: the network, an unavailable service, rate limits, a busy zone, a request
    /// refused for its credentials or cancelled; and any item the server did not answer (its
    /// zone's request failed as a whole, in a send spanning zones, a 5xx included).
    static func retriesItself(_ error: CKError) -> Bool {
        if error.isUnanswered { return true }
        return switch error.code {
        case .notAuthenticated, .accountTemporarilyUnavailable, .operationCancelled: true
        default: SyncRetry.isTransient(error)
        }
    }

    /// How long a transient failure holds its change back: the server's `retryAfter`, else a second.
    static func retryDelay(_ error: CKError) -> Double { error.retryAfterSeconds ?? 1 }

    /// What a request that failed as a whole means for the changes it carried.
    enum RequestVerdict: Hashable, Sendable {
        /// Too large for the server: sent again in two halves.
        case split
        /// Too large and not to be split (one change, or an atomic batch whose halves would
        /// commit apart): each change is refused with the error, for the delegate to batch smaller.
        case refuseEach
        /// Nothing was answered: every change stays pending. `retryAt` is when a send is worth
        /// trying again (a transient failure); `checkAccount` asks who is signed in before the
        /// next send (the token was refused: the user may have signed out or switched).
        case keptPending(retryAt: Date?, checkAccount: Bool)
    }

    /// What a request for `changes` changes failing with `error` means.
    static func verdict(forRequest error: CKError, changes: Int, atomic: Bool, now: Date) -> RequestVerdict {
        if error.code == .limitExceeded { return changes > 1 && !atomic ? .split : .refuseEach }
        let retryAt = SyncRetry.isTransient(error) ? now.addingTimeInterval(retryDelay(error)) : nil
        return .keptPending(retryAt: retryAt, checkAccount: error.code == .notAuthenticated)
    }

    // MARK: - Fetching

    /// What a failed fetch of a database's or zone's changes means.
    enum FetchVerdict: Hashable, Sendable {
        /// The server dropped the history behind the token: forget it and fetch from the start.
        case startOver
        /// The zone is gone: reported as the database feed would have (with why), and forgotten.
        case zoneGone(CKDatabase.DatabaseChange.Deletion.Reason)
        /// The fetch fails; the token stays where it was, so nothing is skipped for good.
        case fail
    }

    /// What `error` means for a zone's fetch from a token (`hadToken`) or from the start.
    static func verdict(forZoneFetch error: CKError, hadToken: Bool) -> FetchVerdict {
        switch error.code {
        case .changeTokenExpired where hadToken: .startOver
        case .userDeletedZone: .zoneGone(.purged)
        case .zoneNotFound: .zoneGone(error.userInfo[CKErrorUserDidResetEncryptedDataKey] as? Bool == true ? .encryptedDataReset : .deleted)
        default: .fail
        }
    }

    /// What `error` means for the database feed's fetch.
    static func verdict(forDatabaseFetch error: CKError, hadToken: Bool) -> FetchVerdict {
        error.code == .changeTokenExpired && hadToken ? .startOver : .fail
    }

    /// The zone a fetch takes next, asked before each of its requests: the options' prioritized
    /// zones first, then the others in the order the database feed named them — only zones the
    /// scope covers and this fetch has not finished.
    static func nextZone(unfetched: [CKRecordZone.ID], options: CKSyncEngine.FetchChangesOptions, finished: Set<CKRecordZone.ID>) -> CKRecordZone.ID? {
        let candidates = unfetched.filter { options.scope.contains($0) && !finished.contains($0) }
        return options.prioritizedZoneIDs.first(where: candidates.contains) ?? candidates.first
    }

    // MARK: - The account

    /// What the account a check found means, against the one the state belongs to.
    enum AccountVerdict: Hashable, Sendable {
        case unchanged
        case signIn(current: String)
        case switchAccounts(previous: String, current: String)
        case signOut(previous: String)
    }

    /// `previous`: the user the state belongs to; `current`: the user signed in now (`nil`: none).
    static func accountVerdict(previous: String?, current: String?) -> AccountVerdict {
        switch (previous, current) {
        case (let previous?, let current?) where previous != current: .switchAccounts(previous: previous, current: current)
        case (nil, let current?): .signIn(current: current)
        case (let previous?, nil): .signOut(previous: previous)
        default: .unchanged
        }
    }

    // MARK: - Launch

    /// The sends an automatic engine schedules when it starts from `state`, in seconds from
    /// `now`: at once when anything is pending (restored changes go without another edit), and
    /// again when the last change a transient failure held back may go.
    static func launchSends(_ state: CKSyncEngine.State.Serialization, now: Date) -> [Double] {
        guard !state.records.isEmpty || !state.zones.isEmpty || state.hasPendingUntrackedChanges else { return [] }
        return [0] + (state.longestHold(at: now).map { [$0] } ?? [])
    }
}
