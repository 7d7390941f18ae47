import ServiceLifecycle
import StratusStore
import Synchronization

/// Keeps server instances that share one store in step, over the store's ``InstanceSignals``:
/// what one instance caches in memory (subscriptions, schema, credentials, push tokens) is
/// dropped on the others when it changes, and a notification feed that moved on one wakes the
/// polls waiting on it everywhere. Without signals (SQLite: one process) it does nothing.
///
/// A message is a topic and a body on one line: `feeds <position> <feed>…`, `subscriptions`,
/// `schema <container>`, `credentials`, `tokens <token>`, `faults`.
///
/// The relay is a `Service` in the application's group: ``run()`` sends announcements one at a
/// time in the order they were made and hands other instances' messages to the handler given to
/// ``listen(_:)``, until a graceful shutdown; then it sends what is still queued and returns.
public final class InstanceRelay: Service, Sendable {
    enum Topic: String {
        case feeds, subscriptions, schema, credentials, tokens, faults
    }

    let signals: (any InstanceSignals)?
    private let outbox: AsyncStream<String>
    private let send: AsyncStream<String>.Continuation
    private let handler = Mutex<(@Sendable (Topic, Substring) -> Void)?>(nil)

    /// - Parameter signals: the store's signals when instances share it; `nil` for one process alone.
    public init(signals: (any InstanceSignals)?) {
        self.signals = signals
        (outbox, send) = AsyncStream.makeStream(of: String.self)
    }

    /// Whether other instances may share the store (so per-process shortcuts must be off).
    var isShared: Bool { signals != nil }

    /// Tells the other instances, without waiting for the database (sent in order by ``run()``).
    func announce(_ topic: Topic, _ body: String = "") {
        guard signals != nil else { return }
        send.yield(body.isEmpty ? topic.rawValue : topic.rawValue + " " + body)
    }

    /// Hands other instances' announcements to `handle` while the relay runs (a resynchronisation
    /// as every topic at once).
    func listen(_ handle: @escaping @Sendable (Topic, Substring) -> Void) {
        handler.withLock { $0 = handle }
    }

    public func run() async {
        guard let signals else { return }
        let messages = signals.messages()
        await withDiscardingTaskGroup { group in
            group.addTask {
                for await message in messages.cancelOnGracefulShutdown() { self.receive(message) }
            }
            group.addTask {
                await withGracefulShutdownHandler {
                    for await message in self.outbox { await signals.broadcast(message) }
                } onGracefulShutdown: {
                    self.send.finish()
                }
            }
        }
    }

    private func receive(_ message: String) {
        guard let handle = handler.withLock({ $0 }) else { return }
        if message == "resynchronize" {
            for topic in [Topic.subscriptions, .credentials, .faults] { handle(topic, "") }
            handle(.schema, "*")
            handle(.tokens, "*")
            return
        }
        let parts = message.split(separator: " ", maxSplits: 1)
        guard let name = parts.first, let topic = Topic(rawValue: String(name)) else { return }
        handle(topic, parts.count > 1 ? parts[1] : "")
    }
}
