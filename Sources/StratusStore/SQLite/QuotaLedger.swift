import GRDB
import StratusModel

/// An account's storage quota as one zone batch sees it: the quota, the bytes its records use,
/// and what each write would add. Bytes are those of the stored fields JSON. Only private
/// databases count (a shared zone is its owner's private zone); the public database has none.
struct QuotaLedger {
    let database: DatabaseKey
    let bytes: Int64
    var used: Int64

    /// The quota of the batch's account, or `nil` when it has none (one indexed read).
    static func load(for database: DatabaseKey, in db: Database) throws -> QuotaLedger? {
        guard database.scope == .private else { return nil }
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT bytes, used FROM quotas WHERE container = ? AND environment = ? AND owner = ?"),
            arguments: [database.container, database.environment.rawValue, database.owner]
        )
        return row.map { QuotaLedger(database: database, bytes: $0[0], used: $0[1]) }
    }

    /// The bytes a write adds (negative when it frees some); a merge is counted at most.
    func delta(of write: RecordWrite, fieldsJSON: String, zoneID: Int64, in db: Database) throws -> Int64 {
        let new = Int64(fieldsJSON.utf8.count)
        switch write.action {
        case .leave: return 0
        case .create: return new
        case .delete: return -(try Self.storedBytes(of: write.name, zoneID: zoneID, in: db))
        case .save(let replace): return replace ? new - (try Self.storedBytes(of: write.name, zoneID: zoneID, in: db)) : new
        }
    }

    /// Whether `delta` fits (freeing space always does).
    func admits(_ delta: Int64) -> Bool { delta <= 0 || used + delta <= bytes }

    func save(in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE quotas SET used = ? WHERE container = ? AND environment = ? AND owner = ?")
            .execute(arguments: [max(used, 0), database.container, database.environment.rawValue, database.owner])
    }

    /// Gives back a deleted zone's bytes (before its records go).
    static func release(zoneID: Int64, of database: DatabaseKey, in db: Database) throws {
        guard var ledger = try load(for: database, in: db) else { return }
        ledger.used -= try Int64.fetchOne(
            db, sql: "SELECT coalesce(sum(length(CAST(fields AS BLOB))), 0) FROM records WHERE zone_id = ? AND deleted = 0",
            arguments: [zoneID]
        ) ?? 0
        try ledger.save(in: db)
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

    private static func storedBytes(of name: String, zoneID: Int64, in db: Database) throws -> Int64 {
        try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT length(CAST(fields AS BLOB)) FROM records WHERE zone_id = ? AND record_name = ? AND deleted = 0"
            ),
            arguments: [zoneID, name]
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
