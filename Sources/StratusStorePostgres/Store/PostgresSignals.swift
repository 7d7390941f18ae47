import Foundation
import Logging
import PostgresNIO
import StratusStore
import Synchronization

/// ``InstanceSignals`` over PostgreSQL's `LISTEN`/`NOTIFY` on one channel. Each store instance
/// tags what it sends with its own identity and ignores its own messages. The store's ``run()``
/// opens one listening connection once the first ``messages()`` asks for it and keeps it
/// (reconnecting after a failure, then telling its listeners to resynchronize) until it stops.
final class PostgresSignals: Sendable {
    static let channel = "stratus_signals"

    private struct State {
        var listeners: [UInt64: AsyncStream<String>.Continuation] = [:]
        var nextID: UInt64 = 0
        var asked = false
        var closed = false
    }

    /// Yields once, when the first listener asks: ``run()`` then starts listening.
    private let firstListener: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) = AsyncStream.makeStream()

    private let client: PostgresClient
    private let logger: Logger
    private let identity = UUID().uuidString
    private let state = Mutex(State())

    init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    func broadcast(_ message: String) async {
        let payload = identity + " " + message
        do {
            try await client.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
        } catch {
            logger.warning("cannot signal other instances: \(String(reflecting: error))")
        }
    }

    func messages() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(10_000))
        let start = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = continuation
            continuation.onTermination = { [weak self] _ in self?.removeListener(id) }
            defer { state.asked = true }
            return !state.asked
        }
        if start { firstListener.continuation.yield() }
        return stream
    }

    /// Listens once the first listener asks, until cancelled.
    func run() async {
        for await _ in firstListener.stream {
            await listen()
            return
        }
    }

    /// Ends every listener (the store stopped).
    func close() {
        let listeners = state.withLock { state in
            state.closed = true
            defer { state.listeners = [:] }
            return Array(state.listeners.values)
        }
        firstListener.continuation.finish()
        for listener in listeners { listener.finish() }
    }

    private func removeListener(_ id: UInt64) {
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }

    private func deliver(_ message: String) {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(message) }
    }

    /// Holds one connection on the channel; after losing it, waits a moment, listens again and
    /// tells listeners to resynchronize (they may have missed messages in between).
    private func listen() async {
        var reconnecting = false
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: Self.channel) { notifications in
                        if reconnecting { self.deliver("resynchronize") }
                        for try await notification in notifications {
                            let payload = notification.payload
                            guard let space = payload.firstIndex(of: " "), payload[..<space] != self.identity else { continue }
                            self.deliver(String(payload[payload.index(after: space)...]))
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("lost the signal channel, listening again: \(String(reflecting: error))")
            }
            reconnecting = true
            try? await Task.sleep(for: .milliseconds(500))
        }
    }
}

extension PostgresStore: InstanceSignals {
    public func broadcast(_ message: String) async {
        await signals.broadcast(message)
    }

    public func messages() -> AsyncStream<String> {
        signals.messages()
    }
}

extension PostgresStore: SharedSettings {
    public func sharedSetting(_ name: String) async throws(StoreError) -> String? {
        try await first(query("SELECT value FROM shared_settings WHERE name = \(name)")) { try $0.decode(String.self) }
    }

    public func setSharedSetting(_ name: String, to value: String?) async throws(StoreError) {
        if let value {
            try await query("""
                INSERT INTO shared_settings (name, value, updated_at) VALUES (\(name), \(value), \(Self.nowMilliseconds))
                ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
                """)
        } else {
            try await query("DELETE FROM shared_settings WHERE name = \(name)")
        }
    }

    /// One statement: the row lock of an `ON CONFLICT` update orders concurrent claims.
    public func claimSharedUse(_ name: String, limit: Int) async throws(StoreError) -> Int? {
        guard limit >= 1 else { return nil }
        return try await first(query("""
            INSERT INTO shared_settings (name, value, updated_at) VALUES (\(name), '1', \(Self.nowMilliseconds))
            ON CONFLICT (name) DO UPDATE SET value = (CAST(shared_settings.value AS BIGINT) + 1)::TEXT, updated_at = EXCLUDED.updated_at
            WHERE CAST(shared_settings.value AS BIGINT) < \(limit)
            RETURNING CAST(value AS BIGINT)
            """)) { Int(try $0.decode(Int64.self)) }
    }
}
