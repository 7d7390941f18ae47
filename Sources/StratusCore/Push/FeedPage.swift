import Foundation
import StratusModel

/// One answer of a token's feed: the notifications due and the cursor to send next, each
/// notification already encoded. A notification is encoded once, when it is appended, however
/// many devices it is delivered to: a wake-up of thousands of polls copies bytes instead of
/// running an encoder per poll.
public struct FeedPage: Sendable {
    public var notifications: [EncodedNotification]
    public var cursor: String

    /// The body's size in bytes, give or take the cursor: room to reserve before ``writeJSON(_:)``.
    public var jsonByteCount: Int {
        notifications.reduce(64) { $0 + $1.json.utf8.count + 1 }
    }

    /// Hands the long-poll's body, `{"notifications": [...], "cursor": "..."}` (NotificationFeed's
    /// JSON), to `write` piece by piece, the encoded notifications as they are: the server puts
    /// it straight into its output buffer.
    public func writeJSON(_ write: (String) -> Void) {
        write("{\"notifications\":[")
        for (index, notification) in notifications.enumerated() {
            if index > 0 { write(",") }
            write(notification.json)
        }
        write("],\"cursor\":\"\(cursor)\"}")
    }
}

/// A notification with its JSON. A class: the recent window, every page and every poll woken
/// together share one, so handing a notification on is a reference, not a copy of its strings.
public final class EncodedNotification: Sendable {
    public let notification: PushNotification
    public let json: String

    /// Encodes `notification` as the feed answers it.
    init(_ notification: PushNotification) {
        self.notification = notification
        self.json = (try? notification.jsonBytes()).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
