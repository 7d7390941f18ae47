import Logging
import PostgresNIO
import StratusStore

/// One open transaction (or read snapshot) on a pooled connection: the statements of a zone
/// batch, an acceptance or a feed read run through it in order. Errors are plain `throws`
/// here; the store's entry points translate them into `StoreError`.
struct PostgresTransaction {
    let connection: PostgresConnection
    let logger: Logger

    /// Runs a statement for its effect; answers how many rows it returned (`RETURNING` counts).
    @discardableResult
    func execute(_ query: PostgresQuery) async throws -> Int {
        try await connection.query(query, logger: logger).collect().count
    }

    /// Every row of a statement.
    func rows(_ query: PostgresQuery) async throws -> [PostgresRow] {
        try await connection.query(query, logger: logger).collect()
    }

    /// The first row of a statement, decoded by `decode`, or `nil`.
    func first<T>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws -> T? {
        for try await row in try await connection.query(query, logger: logger) { return try decode(row) }
        return nil
    }

    /// Every row of a statement, decoded by `decode`.
    func all<T>(_ query: PostgresQuery, _ decode: (PostgresRow) throws -> T) async throws -> [T] {
        var values: [T] = []
        for try await row in try await connection.query(query, logger: logger) { values.append(try decode(row)) }
        return values
    }

    /// Takes the writers' lock (the change sequence's row, held until commit) and answers the
    /// sequence's current value. Every transaction that stamps sequence values takes it first,
    /// so values are handed out, and become visible, in order across every instance.
    func lockSequence() async throws -> Int64 {
        try await first("UPDATE change_sequence SET value = value WHERE id = 1 RETURNING value") { try $0.decode(Int64.self) } ?? 0
    }

    /// Stores the sequence's new value (the lock is already held).
    func setSequence(_ value: Int64) async throws {
        try await execute("UPDATE change_sequence SET value = \(value) WHERE id = 1")
    }
}

extension PostgresStore {
    /// Runs `body` in a read-write transaction.
    func write<T: Sendable>(_ body: nonisolated(nonsending) (PostgresTransaction) async throws -> sending T) async throws(StoreError) -> T {
        let logger = logger
        return try await withTransaction { connection in try await body(PostgresTransaction(connection: connection, logger: logger)) }
    }

    /// Runs `body` in a read-only snapshot (`REPEATABLE READ`): its statements see one committed
    /// state, as an SQLite reader does.
    func read<T: Sendable>(_ body: nonisolated(nonsending) (PostgresTransaction) async throws -> sending T) async throws(StoreError) -> T {
        let logger = logger
        return try await withConnection { connection in
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let value = try await body(PostgresTransaction(connection: connection, logger: logger))
                try await connection.query("COMMIT", logger: logger)
                return value
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
        }
    }
}
