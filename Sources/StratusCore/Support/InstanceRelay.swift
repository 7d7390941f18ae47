import StratusStore

/// Keeps server instances that share one store in step, over the store's ``InstanceSignals``:
/// what one instance caches in memory (subscriptions, schema, credentials, push tokens) is
/// dropped on the others when it changes, and a notification feed that moved on one wakes the
/// polls waiting on it everywhere. Without signals (SQLite: one process) it does nothing.
///
/// A message is a topic and a body on one line: `feeds <position> <feed>…`, `subscriptions`,
/// `schema <container>`, `credentials`, `tokens <token>`, `faults`.
public final class InstanceRelay: Sendable {
    enum Topic: String {
        case feeds, subscriptions, schema, credentials, tokens, faults
    }

    let signals: (any InstanceSignals)?

    /// - Parameter signals: the store's signals when instances share it; `nil` for one process alone.
    public init(signals: (any InstanceSignals)?) {
        self.signals = signals
    }

    /// Whether other instances may share the store (so per-process shortcuts must be off).
    var isShared: Bool { signals != nil }

    /// Tells the other instances, without waiting for the database.
    func announce(_ topic: Topic, _ body: String = "") {
        guard let signals else { return }
        let message = body.isEmpty ? topic.rawValue : topic.rawValue + " " + body
        Task { await signals.broadcast(message) }
    }

    /// Listens for other instances' announcements for as long as the store carries them,
    /// handing each to `handle` (a resynchronisation as every topic at once).
    func listen(_ handle: @escaping @Sendable (Topic, Substring) -> Void) {
        guard let signals else { return }
        let messages = signals.messages()
        Task {
            for await message in messages {
                if message == "resynchronize" {
                    for topic in [Topic.subscriptions, .credentials, .faults] { handle(topic, "") }
                    handle(.schema, "*")
                    handle(.tokens, "*")
                    continue
                }
                let parts = message.split(separator: " ", maxSplits: 1)
                guard let name = parts.first, let topic = Topic(rawValue: String(name)) else { continue }
                handle(topic, parts.count > 1 ? parts[1] : "")
            }
        }
    }
}
