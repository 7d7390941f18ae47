import Foundation
import StratusModel
import StratusStore

/// The hub of an instance that shares its store with others: it wakes this instance's waiters
/// as ``LocalNotificationHub`` does, and announces every publication through the
/// ``InstanceRelay`` so the other instances wake theirs; what they announce is published here.
/// A feed's notifications are in the store, so a poll woken on any instance reads them all.
final class RelayedNotificationHub: NotificationHub {
    private let local: any NotificationHub
    private let relay: InstanceRelay

    init(local: any NotificationHub, relay: InstanceRelay) {
        self.local = local
        self.relay = relay
    }

    func publish(_ feeds: Set<FeedKey>, through position: Int64) {
        local.publish(feeds, through: position)
        for body in Self.messages(feeds, through: position) { relay.announce(.feeds, body) }
    }

    func latest(_ feed: FeedKey) -> Int64 { local.latest(feed) }

    func wait(for feed: FeedKey, after position: Int64, timeout: Duration) async -> Bool {
        await local.wait(for: feed, after: position, timeout: timeout)
    }

    func close() { local.close() }

    var isClosed: Bool { local.isClosed }

    /// Publishes here what another instance announced.
    func receive(_ body: Substring) {
        guard let message = try? JSONDecoder().decode(Message.self, from: Data(body.utf8)) else { return }
        let feeds = message.feeds.compactMap { feed -> FeedKey? in
            guard feed.count == 3, let environment = ContainerEnvironment(rawValue: feed[2]) else { return nil }
            return FeedKey(recipient: feed[0], container: feed[1], environment: environment)
        }
        local.publish(Set(feeds), through: message.position)
    }

    /// A publication on the wire: the position and the feeds as `[recipient, container, environment]`.
    private struct Message: Codable {
        var position: Int64
        var feeds: [[String]]
    }

    /// The announcements for one publication, each within a signal's size limit.
    static func messages(_ feeds: Set<FeedKey>, through position: Int64) -> [String] {
        let encoder = JSONEncoder()
        var bodies: [String] = []
        var batch: [[String]] = []
        var size = 0
        func flush() {
            guard !batch.isEmpty, let data = try? encoder.encode(Message(position: position, feeds: batch)) else { return }
            bodies.append(String(decoding: data, as: UTF8.self))
            batch = []
            size = 0
        }
        for feed in feeds {
            let entry = [feed.recipient, feed.container, feed.environment.rawValue]
            let cost = entry.reduce(8) { $0 + $1.utf8.count * 2 }
            if size + cost > 6_000 { flush() }
            batch.append(entry)
            size += cost
        }
        flush()
        return bodies
    }
}
