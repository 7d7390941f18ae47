import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import StratusStore

/// The PostgreSQL store: the same protocols as `SQLiteStore`, for many server instances on one
/// database. Every instance runs the same migrations (serialised by an advisory lock), so any of
/// them can start first.
///
/// It is a `Service`, as PostgresNIO's `PostgresClient` is: ``run()`` runs the connection pool,
/// the `LISTEN` loop of ``PostgresSignals`` and the drains of ``PostgresGroupCommit`` until a
/// graceful shutdown or cancellation, and no query is answered before it runs (`stratus serve`
/// lists it first in its service group, so it stops last). Zone batches arriving together on one
/// instance share a transaction; every writing transaction takes the change sequence's row lock
/// first, so sequence values are handed out, and become visible, in one order across instances.
public final class PostgresStore: RecordStore, Service, Sendable {
    public let location: PostgresLocation
    let client: PostgresClient
    let logger: Logger
    let groupCommit: PostgresGroupCommit
    let signals: PostgresSignals

    public init(_ location: PostgresLocation, maximumConnections: Int = 20, logger: Logger = Logger(label: "stratus.postgres")) {
        var configuration = location.configuration
        configuration.options.maximumConnections = maximumConnections
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        self.location = location
        self.client = client
        self.logger = logger
        self.groupCommit = PostgresGroupCommit { batches in await PostgresStore.writeGroup(batches, client: client, logger: logger) }
        self.signals = PostgresSignals(client: client, logger: logger)
    }

    /// Runs the pool, the signal channel and the group commit's drains until a graceful shutdown
    /// (or cancellation); then ends every signal listener. Queries wait until it runs.
    public func run() async {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await self.client.run() }
                group.addTask { await self.signals.run() }
                group.addTask { await self.groupCommit.run() }
            }
        }
        signals.close()
    }

    /// Runs `body` with the store running (``run()`` beside it), then stops it: for tools and
    /// tests that use a store outside a service group.
    public func running<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }

    /// Milliseconds since 1970, for `created_at` columns.
    static var nowMilliseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }

    /// Runs `body` on one pooled connection, translating PostgreSQL's errors into ``StoreError``.
    func withConnection<T: Sendable>(_ body: nonisolated(nonsending) (PostgresConnection) async throws -> sending T) async throws(StoreError) -> T {
        do {
            return try await client.withConnection(body)
        } catch {
            throw Self.translate(error)
        }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws).
    func withTransaction<T: Sendable>(_ body: nonisolated(nonsending) (PostgresConnection) async throws -> sending T) async throws(StoreError) -> T {
        do {
            return try await client.withTransaction(logger: logger, body)
        } catch {
            throw Self.translate(error)
        }
    }

    /// One statement's result rows.
    @discardableResult
    package func query(_ query: PostgresQuery) async throws(StoreError) -> PostgresRowSequence {
        do {
            return try await client.query(query, logger: logger)
        } catch {
            throw Self.translate(error)
        }
    }

    /// Runs one statement as written (no parameters): database administration, never values a client sent.
    package func execute(unsafeSQL sql: String) async throws(StoreError) {
        try await query(PostgresQuery(unsafeSQL: sql))
    }

    static func translate(_ error: any Error) -> StoreError {
        if let error = error as? StoreError { return error }
        // A transaction reports what its body threw (or what BEGIN or COMMIT did) wrapped.
        if let error = error as? PostgresTransactionError, let cause = error.closureError ?? error.beginError ?? error.commitError {
            return translate(cause)
        }
        if let error = error as? PSQLError {
            switch error.serverInfo?[.sqlState] {
            case "23505": return StoreError(.duplicate, error.serverInfo?[.message] ?? "duplicate")
            case "40001", "40P01", "55P03": return StoreError(.busy, error.serverInfo?[.message] ?? "serialization")
            // Text PostgreSQL cannot store (a NUL character) is the client's input, not a failure.
            case "22P05", "22021": return StoreError(.invalid, "text with a NUL character cannot be stored")
            // A statement past PostgreSQL's limits: what the client's query asked for.
            case "54001", "54011", "54023": return StoreError(.invalid, "the query is too large: use fewer filters, sort keys or list values")
            default: return StoreError(.failure, String(reflecting: error))
            }
        }
        return StoreError(.failure, "\(error)")
    }
}
