import PostgresNIO
import StratusModel
import StratusStore

/// An account's storage quota as one zone batch sees it (the SQLite store's `QuotaLedger`):
/// bytes are those of the fields JSON as encoded (`records.fields_size`); only private
/// databases count.
struct PostgresQuotaLedger {
    let database: DatabaseKey
    let bytes: Int64
    var used: Int64

    /// The quota of the batch's account, or `nil` when it has none (one indexed read).
    static func load(for database: DatabaseKey, in tx: PostgresTransaction) async throws -> PostgresQuotaLedger? {
        guard database.scope == .private else { return nil }
        return try await tx.first("""
            SELECT bytes, used FROM quotas
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue) AND owner = \(database.owner)
            """) { row in
            let (bytes, used) = try row.decode((Int64, Int64).self)
            return PostgresQuotaLedger(database: database, bytes: bytes, used: used)
        }
    }

    /// The bytes a write adds (negative when it frees some); a merge is counted at most.
    func delta(of write: RecordWrite, fieldsJSON: String, zoneID: Int64, in tx: PostgresTransaction) async throws -> Int64 {
        let new = Int64(fieldsJSON.utf8.count)
        switch write.action {
        case .leave: return 0
        case .create: return new
        case .delete: return -(try await Self.storedBytes(of: write.name, zoneID: zoneID, in: tx))
        case .save(let replace): return replace ? new - (try await Self.storedBytes(of: write.name, zoneID: zoneID, in: tx)) : new
        }
    }

    /// Whether `delta` fits (freeing space always does).
    func admits(_ delta: Int64) -> Bool { delta <= 0 || used + delta <= bytes }

    func save(in tx: PostgresTransaction) async throws {
        try await tx.execute("""
            UPDATE quotas SET used = \(max(used, 0))
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue) AND owner = \(database.owner)
            """)
    }

    /// Gives back a deleted zone's bytes (before its records go).
    static func release(zoneID: Int64, of database: DatabaseKey, in tx: PostgresTransaction) async throws {
        guard var ledger = try await load(for: database, in: tx) else { return }
        ledger.used -= try await tx.first(
            "SELECT coalesce(sum(fields_size), 0)::BIGINT FROM records WHERE zone_id = \(zoneID) AND NOT deleted"
        ) { try $0.decode(Int64.self) } ?? 0
        try await ledger.save(in: tx)
    }

    /// The bytes an account's private records use now (a scan of its zones: for admin calls only).
    static func usage(container: String, environment: ContainerEnvironment, owner: String, in tx: PostgresTransaction) async throws -> Int64 {
        try await tx.first("""
            SELECT coalesce(sum(r.fields_size), 0)::BIGINT FROM records r JOIN zones z ON z.id = r.zone_id
            WHERE z.container = \(container) AND z.environment = \(environment.rawValue) AND z.scope = 'private' AND z.owner = \(owner)
                AND z.deleted_seq IS NULL AND NOT r.deleted
            """) { try $0.decode(Int64.self) } ?? 0
    }

    private static func storedBytes(of name: String, zoneID: Int64, in tx: PostgresTransaction) async throws -> Int64 {
        try await tx.first(
            "SELECT fields_size FROM records WHERE zone_id = \(zoneID) AND record_name = \(name) AND NOT deleted"
        ) { try $0.decode(Int64.self) } ?? 0
    }
}

extension PostgresStore: QuotaStore {
    public func setQuota(_ bytes: Int64?, container: String, environment: ContainerEnvironment, owner: String) async throws(StoreError) -> Int64 {
        try await write { tx in
            _ = try await tx.lockSequence()
            let used = try await PostgresQuotaLedger.usage(container: container, environment: environment, owner: owner, in: tx)
            if let bytes {
                try await tx.execute("""
                    INSERT INTO quotas (container, environment, owner, bytes, used)
                    VALUES (\(container), \(environment.rawValue), \(owner), \(bytes), \(used))
                    ON CONFLICT (container, environment, owner) DO UPDATE SET bytes = EXCLUDED.bytes, used = EXCLUDED.used
                    """)
            } else {
                try await tx.execute(
                    "DELETE FROM quotas WHERE container = \(container) AND environment = \(environment.rawValue) AND owner = \(owner)"
                )
            }
            return used
        }
    }
}
