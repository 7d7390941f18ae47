import Foundation

/// The engine's decisions, apart from its requests: what the server's answer means for each
/// pending change, what a failed fetch means for a token, who is signed in now, which zone a
/// fetch takes next and what an automatic engine sends at launch; how large a request is
/// (`SyncRules+Sizes`), what a send does next and when failed work is tried again
/// (`SyncRules+Schedule`). Plain values from plain inputs
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
        /// Not answered because a request of the same modify was too large: sent again at once,
        /// in smaller requests (`halves(of:)`), and reported when answered.
        case sentAgainSmaller
        /// Refused on its own for a size no resend fixes (a record larger than the server takes):
        /// reported and kept — no change leaves the list for a size — but set aside, not sent
        /// again until the app adds it again (made smaller), so it holds back no other change
        /// (its atomic zone's included) and no retry resends it.
        case setAside
    }

    /// What one change's answer means: `error` is `nil` for a change the server took;
    /// `refusedTogether`: the error is the whole request's, given to each of its several changes
    /// (``RequestVerdict/refuseEach``, ``refusedTogether(_:)``).
    static func verdict(forChange error: CKError?, refusedTogether: Bool = false, now: Date) -> ChangeVerdict {
        guard let error else { return .answered }
        // Its zone's request came after one the server found too large: sent again, smaller,
        // in the same send (no change leaves the list for a size).
        if error.isUnanswered, error.code == .limitExceeded { return .sentAgainSmaller }
        // Refused for its size: reported, and kept — no change leaves the list for a size. A zone's
        // atomic changes too many for one request wait for the delegate to batch them smaller; a
        // record too large on its own waits for the app to make it smaller.
        if error.code == .limitExceeded { return refusedTogether ? .keptPending : .setAside }
        guard retriesItself(error) else { return .answered }
        return error.code.isTransient ? .heldUntil(now.addingTimeInterval(retryDelay(error))) : .keptPending
    }

    /// What one zone change's answer means: a record change's verdict, except that a zone is no
    /// size the app makes smaller — a zone change refused as too large is kept pending, never set
    /// aside, and one a too-large request left unanswered goes with the next send.
    static func verdict(forZoneChange error: CKError?, now: Date) -> ChangeVerdict {
        switch verdict(forChange: error, now: now) {
        case .setAside, .sentAgainSmaller: .keptPending
        case let verdict: verdict
        }
    }

    /// Whether a change refused with `error` is sent again by the engine itself — what Apple's
    /// engine retries: the network, an unavailable service, rate limits, a busy zone, a request
    /// refused for its credentials or cancelled; and any item the server did not answer (its
    /// zone's request failed as a whole, in a send spanning zones, a 5xx included).
    static func retriesItself(_ error: CKError) -> Bool {
        if error.isUnanswered { return true }
        return switch error.code {
        // `batchRequestFailed`: the change itself was fine, another of its atomic zone failed.
        case .notAuthenticated, .accountTemporarilyUnavailable, .operationCancelled, .batchRequestFailed: true
        default: error.code.isTransient
        }
    }

    /// How long a transient failure holds its change back: the server's `retryAfter`, else a second.
    static func retryDelay(_ error: CKError) -> Double { error.retryAfterSeconds ?? 1 }

    /// What a request that failed as a whole means for the changes it carried.
    enum RequestVerdict: Hashable, Sendable {
        /// Too large for the server: sent again in two halves (`halves(of:)`) — no change leaves
        /// the list for a size.
        case split
        /// Too large and not to be split (one change, or one zone's atomic changes): each change
        /// is reported failed with the error, for the delegate to batch smaller, and stays pending.
        case refuseEach
        /// Nothing was answered: every change stays pending. `retryAt` is when a send is worth
        /// trying again (a transient failure); `checkAccount` asks who is signed in before the
        /// next send (the token was refused: the user may have signed out or switched).
        case keptPending(retryAt: Date?, checkAccount: Bool)
    }

    /// Whether the changes of a request refused whole as too large and not to be split were
    /// refused together — one zone's atomic changes, for the delegate to batch smaller — rather
    /// than one change alone, too large for any request (set aside as a record too large is).
    static func refusedTogether(_ batch: CKSyncEngine.RecordZoneChangeBatch) -> Bool {
        batch.recordsToSave.count + batch.recordIDsToDelete.count > 1
    }

    /// What a request failing with `error` means; `splittable`: whether its changes can go in
    /// two (``canSplit(_:)``).
    static func verdict(forRequest error: CKError, splittable: Bool, now: Date) -> RequestVerdict {
        if error.code == .limitExceeded { return splittable ? .split : .refuseEach }
        let retryAt = error.code.isTransient ? now.addingTimeInterval(retryDelay(error)) : nil
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

    /// What a zone page's records that did not arrive (their assets failed to download) mean.
    enum PageVerdict: Hashable, Sendable {
        /// Deliver what arrived and advance the zone's token: the `skipped` records' assets are
        /// gone for good, and — as Apple's `CKFetchRecordZoneChangesOperation` reports a record's
        /// own failure and goes on with the zone — they are left out, not the whole zone.
        case advance(skipped: [CKRecord.ID])
        /// Keep the zone's token: a record failed for a reason fetching again may fix (the
        /// network, the service, the account), so the zone's fetch fails and is fetched again.
        case keepToken(CKError)
    }

    /// What the records of a page that failed to arrive (`failures`, by record) mean: a failure
    /// that says the asset is gone for good (`assetNotAvailable`, `assetFileNotFound`,
    /// `unknownItem`) skips its record; any other keeps the token (the first such, by name).
    static func verdict(forPage failures: [CKRecord.ID: CKError]) -> PageVerdict {
        let ordered = failures.sorted { $0.key.recordName < $1.key.recordName }
        if let kept = ordered.first(where: { !skipsRecord($0.value) }) { return .keepToken(kept.value) }
        return .advance(skipped: ordered.map(\.key))
    }

    /// Whether a record that failed to arrive with `error` is skipped for good (its asset is gone).
    static func skipsRecord(_ error: CKError) -> Bool {
        switch error.code {
        case .assetNotAvailable, .assetFileNotFound, .unknownItem: !error.isUnanswered
        default: false
        }
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

    // MARK: - The subscription

    /// Whether the engine's database subscription is still to save: a user is signed in and it
    /// was not saved for them (`subscribedUser`).
    static func needsSubscription(user: String?, subscribedUser: String?) -> Bool {
        guard let user else { return false }
        return subscribedUser != user
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
