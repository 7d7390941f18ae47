import StratusModel
import StratusStore
import Synchronization

/// The newest notifications of each feed, as this process appended them, so that a wake-up of
/// thousands of polls on one feed answers from memory instead of thousands of store reads.
///
/// A feed's window is complete above ``Window/coveredFrom``: every notification of the feed
/// after it is held (the process appends them all; positions only grow). A poll whose cursor is
/// below it reads the store. Entries leave by count and by the feed retention's age, raising
/// `coveredFrom`, so the window never reaches below what the store has trimmed. One process per
/// store: instances sharing a database would each see only their own appends, so theirs is made
/// with capacity 0, which keeps nothing and sends every poll to the store.
final class RecentFeeds: Sendable {
    struct Entry: Sendable {
        var position: Int64
        var originDevice: String?
        /// The notification and its JSON, encoded once for every device it goes to.
        var notification: EncodedNotification
    }

    private struct Window {
        var entries: [Entry] = []
        var coveredFrom: Int64
    }

    /// Entries kept per feed.
    let capacity: Int
    private let windows = Mutex<[FeedKey: Window]>([:])

    init(capacity: Int = 256) {
        self.capacity = capacity
    }

    /// Adds what was just appended to a feed (positions ascending), dropping what is over the
    /// capacity or older than `age` at `now`.
    func record(_ feed: FeedKey, _ entries: [Entry], now: Int64, age: Int64) {
        guard capacity > 0, let first = entries.first else { return }
        windows.withLock { windows in
            var window = windows[feed] ?? Window(coveredFrom: first.position - 1)
            window.entries += entries
            let expired = window.entries.prefix { ($0.notification.notification.timestamp ?? now) < now - age }.count
            let excess = max(expired, window.entries.count - capacity)
            if excess > 0 {
                window.coveredFrom = window.entries[excess - 1].position
                window.entries.removeFirst(excess)
            }
            windows[feed] = window
        }
    }

    /// The feed's notifications after `position` not caused by `device`, at most `limit`; `nil`
    /// when the window does not reach back to `position` (read the store).
    func page(_ feed: FeedKey, after position: Int64, excluding device: String?, limit: Int) -> [Entry]? {
        guard capacity > 0 else { return nil }
        return windows.withLock { windows in
            guard let window = windows[feed], position >= window.coveredFrom else { return nil }
            var page: [Entry] = []
            for entry in window.entries where entry.position > position {
                if let device, entry.originDevice == device { continue }
                page.append(entry)
                if page.count == limit { break }
            }
            return page
        }
    }
}
