import GRDB
import StratusModel
import StratusStore

/// An account's storage quota on SQLite: the quota and the bytes its private records use
/// (`quotas`; bytes are those of the stored fields JSON). Zone batches check and count it in
/// ``ZoneBatchEngine``; a deleted zone gives its bytes back here. Only private databases count
/// (a shared zone is its owner's private zone); the public database has none.
enum QuotaLedger {
    /// The quota of the database's account, or `nil` when it has none (one indexed read).
    static func load(for database: DatabaseKey, in db: Database) throws -> QuotaRow? {
        guard database.scope == .private else { return nil }
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT bytes, used FROM quotas WHERE container = ? AND environment = ? AND owner = ?"),
            arguments: [database.container, database.environment.rawValue, database.owner]
        )
        return row.map { QuotaRow(bytes: $0[0], used: $0[1]) }
    }

    static func save(used: Int64, of database: DatabaseKey, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE quotas SET used = ? WHERE container = ? AND environment = ? AND owner = ?")
            .execute(arguments: [max(used, 0), database.container, database.environment.rawValue, database.owner])
    }

    /// Gives back a deleted zone's bytes (before its records go).
    static func release(zoneID: Int64, of database: DatabaseKey, in db: Database) throws {
        guard let quota = try load(for: database, in: db) else { return }
        let released = try Int64.fetchOne(
            db, sql: "SELECT coalesce(sum(length(CAST(fields AS BLOB))), 0) FROM records WHERE zone_id = ? AND deleted = 0",
            arguments: [zoneID]
        ) ?? 0
        try save(used: quota.used - released, of: database, in: db)
    }

    /// The bytes an account's private records use now (a scan of its zones: for admin calls only).
    static func usage(container: String, environment: ContainerEnvironment, owner: String, in db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT coalesce(sum(length(CAST(r.fields AS BLOB))), 0) FROM records r JOIN zones z ON z.id = r.zone_id
                WHERE z.container = ? AND z.environment = ? AND z.scope = 'private' AND z.owner = ?
                    AND z.deleted_seq IS NULL AND r.deleted = 0
                """,
            arguments: [container, environment.rawValue, owner]
        ) ?? 0
    }
}

extension SQLiteStore: QuotaStore {
    public func setQuota(_ bytes: Int64?, container: String, environment: ContainerEnvironment, owner: String) async throws(StoreError) -> Int64 {
        try await write { db in
            let used = try QuotaLedger.usage(container: container, environment: environment, owner: owner, in: db)
            if let bytes {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO quotas (container, environment, owner, bytes, used) VALUES (?, ?, ?, ?, ?)",
                    arguments: [container, environment.rawValue, owner, bytes, used]
                )
            } else {
                try db.execute(
                    sql: "DELETE FROM quotas WHERE container = ? AND environment = ? AND owner = ?",
                    arguments: [container, environment.rawValue, owner]
                )
            }
            return used
        }
    }
}
