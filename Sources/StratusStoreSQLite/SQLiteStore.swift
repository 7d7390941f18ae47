import Foundation
import GRDB
import StratusModel
import StratusStore

/// The embedded store: one SQLite file in WAL mode (GRDB `DatabasePool`: one writer, parallel
/// readers), or an in-memory database for tests.
///
/// Every zone batch is one write transaction; change feeds read by `(zone_id, seq)` so a page
/// costs the same in a zone of ten records or of a million.
public final class SQLiteStore: RecordStore, IdentityStore {
    let writer: any DatabaseWriter
    let groupCommit: GroupCommit

    /// Opens (creating if needed) the database file at `path`.
    /// - Throws: ``StoreError`` when the file cannot be opened.
    public init(path: String) throws(StoreError) {
        do {
            var configuration = Configuration()
            configuration.busyMode = .timeout(10)
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA foreign_keys = ON")
                db.add(function: SQLiteStore.distanceFunction)
            }
            let pool = try DatabasePool(path: path, configuration: configuration)
            // DatabasePool resets `synchronous` to NORMAL after prepareDatabase; NORMAL in WAL
            // mode is durable against process crashes, which is what a client is promised.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            self.writer = pool
            self.groupCommit = GroupCommit(writer: pool) { batches, db in SQLiteStore.write(group: batches, in: db, reading: .onDemand) }
        } catch {
            throw StoreError(.failure, "cannot open \(path): \(error)")
        }
    }

    /// An in-memory store (tests).
    public convenience init() throws(StoreError) {
        try self.init(batchReading: .onDemand)
    }

    /// An in-memory store whose zone batches are decided with rows read as `batchReading` says.
    package init(batchReading: BatchReading) throws(StoreError) {
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in db.add(function: SQLiteStore.distanceFunction) }
            let queue = try DatabaseQueue(configuration: configuration)
            self.writer = queue
            self.groupCommit = GroupCommit(writer: queue) { batches, db in SQLiteStore.write(group: batches, in: db, reading: batchReading) }
        } catch {
            throw StoreError(.failure, "cannot open in-memory database: \(error)")
        }
    }

    public func migrate() async throws(StoreError) {
        do {
            try Migrations.migrator.migrate(writer)
        } catch {
            throw SQLiteStore.translate(error)
        }
    }

    /// How the batch engine reads a zone's rows during a group commit.
    package enum BatchReading: Sendable {
        /// Each read a statement on the writer's connection, made when the engine asks: the store's way.
        case onDemand
        /// Through ``ReadAheadBatchRows``: each read refused once and made before the engine runs
        /// again, the way the PostgreSQL store reads (tests run the rules this way, PostgreSQL or
        /// not), counted in the tally.
        case readAhead(ReadAheadTally)
    }

    // MARK: - Access helpers

    /// Runs `body` in a write transaction, translating every error to ``StoreError``.
    func write<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.write(body)
        } catch {
            throw SQLiteStore.translate(error)
        }
    }

    /// Runs `body` on a reader (a snapshot, in parallel with the writer on a pool).
    func read<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        do {
            return try await writer.read(body)
        } catch {
            throw SQLiteStore.translate(error)
        }
    }

    static func translate(_ error: any Error) -> StoreError {
        if let storeError = error as? StoreError { return storeError }
        if let databaseError = error as? DatabaseError {
            switch databaseError.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED: return StoreError(.busy, "\(databaseError)")
            case .SQLITE_CONSTRAINT: return StoreError(.duplicate, "\(databaseError)")
            case .SQLITE_ERROR where SQLiteStore.isStatementTooLarge(databaseError):
                return StoreError(.invalid, "the query is too large: use fewer filters, sort keys or list values")
            default: return StoreError(.failure, "\(databaseError)")
            }
        }
        return StoreError(.failure, "\(error)")
    }

    /// SQLite's refusals of a statement past its compile-time limits (bound variables, expression
    /// depth, ORDER BY terms, compound terms): what a client's query asked for, not a failure.
    static func isStatementTooLarge(_ error: DatabaseError) -> Bool {
        guard let message = error.message?.lowercased() else { return false }
        return ["too many sql variables", "expression tree is too large", "too many terms", "too many columns"]
            .contains { message.contains($0) }
    }

    /// Milliseconds since 1970, for bookkeeping columns.
    static var nowMilliseconds: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }
}
