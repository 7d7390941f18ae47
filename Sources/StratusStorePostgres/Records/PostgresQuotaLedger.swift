import PostgresNIO
import StratusModel
import StratusStore

/// An account's storage quota on PostgreSQL (the SQLite store's `QuotaLedger`): bytes are
/// those of the fields JSON as encoded (`records.fields_size`); only private databases count.
/// Zone batches check and count it in ``ZoneBatchEngine``; a deleted zone gives its bytes back here.
enum PostgresQuotaLedger {
    /// The quota of the database's account, or `nil` when it has none (one indexed read).
    static func load(for database: DatabaseKey, in tx: PostgresTransaction) async throws -> QuotaRow? {
        guard database.scope == .private else { return nil }
        return try await tx.first("""
            SELECT bytes, used FROM quotas
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue) AND owner = \(database.owner)
            """) { row in
            let (bytes, used) = try row.decode((Int64, Int64).self)
            return QuotaRow(bytes: bytes, used: used)
        }
    }

    static func save(used: Int64, of database: DatabaseKey, in tx: PostgresTransaction) async throws {
        try await tx.execute("""
            UPDATE quotas SET used = \(max(used, 0))
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue) AND owner = \(database.owner)
            """)
    }

    /// Gives back a deleted zone's bytes (before its records go).
    static func release(zoneID: Int64, of database: DatabaseKey, in tx: PostgresTransaction) async throws {
        guard let quota = try await load(for: database, in: tx) else { return }
        let released = try await tx.first(
            "SELECT coalesce(sum(fields_size), 0)::BIGINT FROM records WHERE zone_id = \(zoneID) AND NOT deleted"
        ) { try $0.decode(Int64.self) } ?? 0
        try await save(used: quota.used - released, of: database, in: tx)
    }

    /// The bytes an account's private records use now (a scan of its zones: for admin calls only).
    static func usage(container: String, environment: ContainerEnvironment, owner: String, in tx: PostgresTransaction) async throws -> Int64 {
        try await tx.first("""
            SELECT coalesce(sum(r.fields_size), 0)::BIGINT FROM records r JOIN zones z ON z.id = r.zone_id
            WHERE z.container = \(container) AND z.environment = \(environment.rawValue) AND z.scope = 'private' AND z.owner = \(owner)
                AND z.deleted_seq IS NULL AND NOT r.deleted
            """) { try $0.decode(Int64.self) } ?? 0
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
