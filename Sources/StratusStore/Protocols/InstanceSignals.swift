/// Messages between the server instances that share one store: an instance says that something
/// changed (a notification feed moved, a cached table went stale) and every other instance
/// hears it. Delivery is best effort and unordered across senders; after a gap (a lost
/// connection) a listener hears ``resynchronize`` and must drop what it cached.
///
/// The PostgreSQL store carries them over `LISTEN`/`NOTIFY`. The SQLite store, used by one
/// process, has no other instance to tell and does not conform.
public protocol InstanceSignals: Sendable {
    /// Tells every other instance `message` (at most ``maximumMessageBytes`` bytes of UTF-8).
    func broadcast(_ message: String) async
    /// What other instances broadcast, from now on, for as long as the stream is iterated.
    func messages() -> AsyncStream<String>
}

extension InstanceSignals {
    /// The longest message a store carries (PostgreSQL's `NOTIFY` payload limit, with room for
    /// the sender's identity).
    public static var maximumMessageBytes: Int { 7_000 }
    /// What a listener hears after it may have missed messages.
    public static var resynchronize: String { "resynchronize" }
}
