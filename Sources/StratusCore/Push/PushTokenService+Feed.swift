import StratusModel
import StratusStore

extension PushTokenService {
    /// The first look at a token's feed, after `cursor` (the token's start when `nil`), for a
    /// poll that may wait until `wait` from now.
    /// - Throws: `NOT_FOUND` for an unknown token, `BAD_REQUEST` for a cursor not issued here.
    public func look(token: String, cursor: String?, wait: Duration) async throws(CoreError) -> FeedLook {
        try await look(again: waiter(token: token, cursor: cursor, wait: wait))
    }

    /// A waiter on a token's feed after `cursor` (the token's start when `nil`), until `wait`
    /// from now, before any look.
    /// - Throws: `NOT_FOUND` for an unknown token, `BAD_REQUEST` for a cursor not issued here.
    public func waiter(token: String, cursor: String?, wait: Duration) async throws(CoreError) -> FeedWaiter {
        if let stored = known.token(token) { return try waiter(stored, cursor: cursor, wait: wait) }
        let found = try await attempt { () async throws(StoreError) in try await store.pushToken(token) }
        guard let stored = found else { throw CoreError(.notFound, "unknown push token") }
        known.remember(stored)
        return try waiter(stored, cursor: cursor, wait: wait)
    }

    private func waiter(_ stored: StoredPushToken, cursor: String?, wait: Duration) throws(CoreError) -> FeedWaiter {
        var position = stored.startID
        if let cursor {
            guard let given = Int64(cursor), given >= 0 else { throw CoreError.badRequest("cursor is not one this server issued") }
            position = given
        }
        let feed = stored.user.map { FeedKey(recipient: $0, container: stored.container, environment: stored.environment) }
        return FeedWaiter(token: stored, feed: feed, position: position, seen: 0, deadline: ContinuousClock.now + wait)
    }

    /// Looks at the feed again (after a wait): the page due, or where to wait next.
    public func look(again waiter: FeedWaiter) async throws(CoreError) -> FeedLook {
        while true {
            let seen = waiter.feed.map(hub.latest) ?? 0
            var notifications: [EncodedNotification]
            var last: Int64
            switch recentPage(waiter) {
            case .nothingNew:
                return waitOrEnd(waiter, seen: seen)
            case .due(let window):
                notifications = window.map(\.notification)
                last = window.last?.position ?? waiter.position
            case .notHeld:
                let (stored, after) = (waiter.token, waiter.position)
                let page = try await attempt { () async throws(StoreError) in
                    try await store.notifications(for: stored, after: after, limit: Self.pageSize)
                }
                notifications = page.entries.map { EncodedNotification($0.notification) }
                if after < page.prunedThrough {
                    notifications.insert(EncodedNotification(pruned(stored, through: page.prunedThrough)), at: 0)
                }
                last = max(page.entries.last?.id ?? after, page.prunedThrough)
                if notifications.isEmpty { return waitOrEnd(waiter, seen: seen) }
            }
            if await pacing.holdBack(waiter.token.token) { continue }
            return .page(FeedPage(notifications: notifications, cursor: String(last)))
        }
    }

    /// The look that needs neither the store nor a pause: the feed's recent window in memory
    /// reaches back to the cursor, and the token may be answered now. `nil` otherwise (look
    /// with ``look(again:)``). Synchronous, so a woken poll answers without growing its task.
    public func lookInMemory(_ waiter: FeedWaiter) -> FeedLook? {
        let seen = waiter.feed.map(hub.latest) ?? 0
        switch recentPage(waiter) {
        case .notHeld: return nil
        case .nothingNew: return waitOrEnd(waiter, seen: seen)
        case .due(let window):
            guard let last = window.last, pacing.answerNow(waiter.token.token) else { return nil }
            return .page(FeedPage(notifications: window.map(\.notification), cursor: String(last.position)))
        }
    }

    /// What the recent window in memory holds after the waiter's cursor.
    private enum RecentPage {
        /// The window does not reach back to the cursor (or there is none): read the store.
        case notHeld
        case nothingNew
        case due([RecentFeeds.Entry])
    }

    private func recentPage(_ waiter: FeedWaiter) -> RecentPage {
        guard let feed = waiter.feed,
            let window = recent.page(feed, after: waiter.position, excluding: waiter.token.deviceID, limit: Self.pageSize)
        else { return .notHeld }
        return window.isEmpty ? .nothingNew : .due(window)
    }

    /// Nothing is due: wait (having seen the hub at `seen`), or end with an empty page once the
    /// deadline passed. A token no account has registered waits too, until its deadline: it has
    /// nothing to deliver, and answering it at once would make its device poll in a tight loop.
    private func waitOrEnd(_ waiter: FeedWaiter, seen: Int64) -> FeedLook {
        let next = FeedWaiter(token: waiter.token, feed: waiter.feed, position: waiter.position, seen: seen, deadline: waiter.deadline)
        guard waiter.deadline > ContinuousClock.now, !Task.isCancelled else { return .page(next.emptyPage) }
        return .wait(next)
    }

    /// Waits until the feed moves past where the waiter looked, or its deadline, or the server
    /// closes feeds. - Returns: whether to look again (`false`: answer the empty page).
    public func wait(_ waiter: FeedWaiter) async -> Bool {
        let remaining = waiter.deadline - ContinuousClock.now
        guard remaining > .zero, !Task.isCancelled else { return false }
        // A token without an account waits on a feed nothing is published to: the hub lets it go
        // at its deadline, on cancellation, or when the server closes feeds, as any other waiter.
        let feed = waiter.feed ?? Self.silentFeed(of: waiter.token)
        return await hub.wait(for: feed, after: max(waiter.position, waiter.seen), timeout: remaining)
    }

    /// The feed a token no account has registered waits on: no user record name is empty, so
    /// no notification is ever published to it.
    static func silentFeed(of token: StoredPushToken) -> FeedKey {
        FeedKey(recipient: "", container: token.container, environment: token.environment)
    }
}
