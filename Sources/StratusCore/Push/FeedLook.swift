import StratusStore

/// One look at a push token's feed: a page to answer now, or where to wait for the next.
///
/// A long-poll is a first look, then waits and looks again until a page is due or the deadline
/// passes. Looking may read the store; waiting reads nothing. The webcourier keeps the two on
/// different tasks (see `HeldAnswerResponder` in StratusServer), so the task that holds a poll
/// for half a minute never carries the frames of a store read.
public enum FeedLook: Sendable {
    /// Notifications are due (or the wait is over): answer this page.
    case page(FeedPage)
    /// Nothing is due yet: wait on this, then look again.
    case wait(FeedWaiter)
}

/// Where a poll waits: its token, the feed position it has read through, and its deadline.
/// A class: a held poll's frames keep one reference to it, not copies of its token.
public final class FeedWaiter: Sendable {
    let token: StoredPushToken
    /// The token's feed (`nil` for a token no account has registered: nothing is delivered to it,
    /// and its polls wait out their deadline on ``PushTokenService/silentFeed(of:)``).
    let feed: FeedKey?
    /// The feed position answered through (the cursor).
    let position: Int64
    /// The hub's newest position for the feed when it was last looked at.
    let seen: Int64
    let deadline: ContinuousClock.Instant

    init(token: StoredPushToken, feed: FeedKey?, position: Int64, seen: Int64, deadline: ContinuousClock.Instant) {
        self.token = token
        self.feed = feed
        self.position = position
        self.seen = seen
        self.deadline = deadline
    }

    /// The page that ends the wait with nothing new: no notifications, the same cursor.
    public var emptyPage: FeedPage { FeedPage(notifications: [], cursor: String(position)) }
}

extension FeedWaiter {
    /// The waiter for what comes after `page` (read through its cursor), until `deadline`.
    public func next(after page: FeedPage, until deadline: ContinuousClock.Instant) -> FeedWaiter {
        FeedWaiter(token: token, feed: feed, position: Int64(page.cursor) ?? position, seen: seen, deadline: deadline)
    }
}
