import Foundation
import StratusModel

/// One answer of a token's feed: the notifications due and the cursor to send next, each
/// notification already encoded. A notification is encoded once, when it is appended, however
/// many devices it is delivered to: a wake-up of thousands of polls copies bytes instead of
/// running an encoder per poll.
public struct FeedPage: Sendable {
    public var notifications: [EncodedNotification]
    public var cursor: String

    /// The long-poll's body, `{"notifications": [...], "cursor": "..."}` (NotificationFeed's JSON).
    public var json: String {
        var text = "{\"notifications\":["
        text.reserveCapacity(notifications.reduce(64) { $0 + $1.json.utf8.count + 1 })
        for (index, notification) in notifications.enumerated() {
            if index > 0 { text += "," }
            text += notification.json
        }
        text += "],\"cursor\":\"\(cursor)\"}"
        return text
    }
}

/// A notification with its JSON.
public struct EncodedNotification: Sendable {
    public var notification: PushNotification
    public var json: String

    /// Encodes `notification` as the feed answers it.
    init(_ notification: PushNotification) {
        self.notification = notification
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        self.json = (try? encoder.encode(notification)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
