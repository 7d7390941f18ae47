import Foundation
import GRDB
import StratusModel

/// A device's local store for one account: one SQLite file holding the private and shared
/// mirrors, persistent history with transaction authors, and the sync engines' saved state.
///
/// The app writes through ``save(_:author:)`` and ``delete(_:author:)``; every write lands in
/// history, and history — not a queue in memory — is what gets exported, so nothing written
/// while mirroring is off (or before a crash) is lost.
public final class LocalStore: Sendable {
    let pool: DatabasePool
    public let path: String
    public let naming: RecordNaming
    /// The asset files beside the store file.
    public let assets: LocalAssets

    /// Opens (creating if needed) the store file at `path`.
    public init(path: String, naming: RecordNaming = .plain) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        self.pool = try DatabasePool(path: path, configuration: configuration)
        self.path = path
        self.naming = naming
        self.assets = LocalAssets(storePath: path)
        try LocalStore.migrator.migrate(pool)
    }

    /// Copies the store to `newPath` (an online backup: history, pending changes and sync state
    /// included), removes the old file, and returns the store at its new place.
    public func move(to newPath: String) throws -> LocalStore {
        let destination = try DatabaseQueue(path: newPath)
        try pool.backup(to: destination)
        try destination.close()
        try pool.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let moved = LocalAssets(storePath: newPath)
        if FileManager.default.fileExists(atPath: assets.directory.path) {
            try FileManager.default.moveItem(at: assets.directory, to: moved.directory)
        }
        return try LocalStore(path: newPath, naming: naming)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE records (
                        scope TEXT NOT NULL, owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                        type TEXT NOT NULL, fields TEXT NOT NULL, parent TEXT, change_tag TEXT, server_record TEXT,
                        PRIMARY KEY (scope, owner, zone, name)
                    ) WITHOUT ROWID;
                    CREATE TABLE history (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        scope TEXT NOT NULL, owner TEXT NOT NULL, zone TEXT NOT NULL, name TEXT NOT NULL,
                        kind TEXT NOT NULL, changed_fields TEXT NOT NULL, author TEXT NOT NULL,
                        exported INTEGER NOT NULL, timestamp REAL NOT NULL
                    );
                    CREATE INDEX history_pending ON history (exported, scope, id);
                    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    """
            )
        }
        return migrator
    }

    // MARK: - App writes

    /// Saves the given fields of a record (others keep their values) and records it in history.
    public func save(_ record: LocalRecord, author: TransactionAuthor = .app) throws {
        try pool.write { db in
            var merged = record
            if let existing = try LocalStore.fetch(record.key, in: db) {
                merged.fields = existing.fields.merging(record.fields) { _, new in new }
                merged.parentName = record.parentName ?? existing.parentName
                merged.changeTag = existing.changeTag
                merged.serverRecord = existing.serverRecord
            }
            try write(merged, in: db)
            try appendHistory(record.key, .save, fields: Array(record.fields.keys).sorted(), author: author, exported: author == .syncImport, in: db)
        }
    }

    /// Clears fields of a record — the app setting them to `nil` — and records it in history: the
    /// change's fields with no value now are cleared on the server by the next send (those keys
    /// alone, ``pendingClearedFields(_:)``); its other fields keep their values. Nothing for a
    /// record the store does not hold.
    public func clear(_ fieldNames: [String], of key: RecordKey, author: TransactionAuthor = .app) throws {
        try pool.write { db in
            guard var record = try LocalStore.fetch(key, in: db) else { return }
            for name in fieldNames { record.fields[name] = nil }
            try write(record, in: db)
            try appendHistory(key, .save, fields: fieldNames.sorted(), author: author, exported: author == .syncImport, in: db)
        }
    }

    /// Deletes a record and records it in history.
    public func delete(_ key: RecordKey, author: TransactionAuthor = .app) throws {
        try pool.write { db in
            try LocalStore.remove(key, in: db)
            try appendHistory(key, .delete, fields: [], author: author, exported: author == .syncImport, in: db)
        }
    }

    // MARK: - Reads

    public func record(_ key: RecordKey) throws -> LocalRecord? {
        try pool.read { db in try LocalStore.fetch(key, in: db) }
    }

    /// The records of a scope (and zone, if given), ordered by zone and name.
    public func records(in scope: DatabaseScope, zone: ZoneID? = nil) throws -> [LocalRecord] {
        try pool.read { db in
            var sql = "SELECT * FROM records WHERE scope = ?"
            var arguments: StatementArguments = [scope.rawValue]
            if let zone {
                sql += " AND zone = ? AND owner = ?"
                arguments += [zone.zoneName, zone.ownerRecordName ?? ZoneID.currentUserOwnerName]
            }
            return try Row.fetchAll(db, sql: sql + " ORDER BY owner, zone, name", arguments: arguments).map(LocalStore.record(from:))
        }
    }

    /// The store's persistent history, oldest first.
    public func history() throws -> [HistoryEntry] {
        try pool.read { db in try Row.fetchAll(db, sql: "SELECT * FROM history ORDER BY id").map(LocalStore.historyEntry(from:)) }
    }

    // MARK: - Metadata

    func meta(_ key: String) throws -> String? {
        try pool.read { db in try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [key]) }
    }

    func setMeta(_ key: String, _ value: String?) throws {
        try pool.write { db in
            if let value {
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Whether local changes are being mirrored to the server (switchable at run time).
    public var isMirroring: Bool {
        get throws { try meta("mirroring") != "off" }
    }

    public func setMirroring(_ on: Bool) throws { try setMeta("mirroring", on ? nil : "off") }

    /// The account whose data the store holds.
    public func account() throws -> String? { try meta("account") }
    func setAccount(_ user: String?) throws { try setMeta("account", user) }

    /// Removes every record, all history and every saved sync state (sign-out, account switch).
    public func purgeAll() throws {
        try pool.write { db in
            try db.execute(sql: "DELETE FROM records; DELETE FROM history; DELETE FROM meta WHERE key != 'mirroring';")
        }
        assets.removeAll()
    }

    /// Removes a zone's records and their history (`purgeObjectsAndRecordsInZone`, local side).
    public func purgeZone(_ zoneID: ZoneID, scope: DatabaseScope) throws {
        try pool.write { db in
            let arguments: StatementArguments = [scope.rawValue, zoneID.zoneName, zoneID.ownerRecordName ?? ZoneID.currentUserOwnerName]
            try db.execute(sql: "DELETE FROM records WHERE scope = ? AND zone = ? AND owner = ?", arguments: arguments)
            try db.execute(sql: "DELETE FROM history WHERE scope = ? AND zone = ? AND owner = ?", arguments: arguments)
        }
    }

    /// Removes a zone's records the server had, and their history, keeping those it never saw
    /// (creations not yet sent): after the user purged the zone in Settings, the server's copies
    /// are not to be sent again, but what the user made since is theirs. Returns how many stay.
    @discardableResult
    public func purgeServerCopies(in zoneID: ZoneID, scope: DatabaseScope) throws -> Int {
        try pool.write { db in
            let zone: StatementArguments = [scope.rawValue, zoneID.zoneName, zoneID.ownerRecordName ?? ZoneID.currentUserOwnerName]
            try db.execute(sql: "DELETE FROM records WHERE scope = ? AND zone = ? AND owner = ? AND server_record IS NOT NULL", arguments: zone)
            try db.execute(
                sql: """
                    DELETE FROM history WHERE scope = ? AND zone = ? AND owner = ?
                    AND name NOT IN (SELECT name FROM records WHERE scope = ? AND zone = ? AND owner = ?)
                    """,
                arguments: zone + zone
            )
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM records WHERE scope = ? AND zone = ? AND owner = ?", arguments: zone) ?? 0
        }
    }

    // MARK: - Rows

    func write(_ record: LocalRecord, in db: Database) throws {
        let server = try record.serverRecord.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO records (scope, owner, zone, name, type, fields, parent, change_tag, server_record)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                record.key.scope.rawValue, record.key.owner, record.key.zoneName, record.key.recordName, record.recordType,
                String(decoding: try JSONEncoder().encode(record.fields), as: UTF8.self), record.parentName, record.changeTag, server,
            ]
        )
    }

    func appendHistory(_ key: RecordKey, _ kind: HistoryEntry.Kind, fields: [String], author: TransactionAuthor, exported: Bool, in db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO history (scope, owner, zone, name, kind, changed_fields, author, exported, timestamp)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                key.scope.rawValue, key.owner, key.zoneName, key.recordName, kind.rawValue,
                String(decoding: try JSONEncoder().encode(fields), as: UTF8.self), author.rawValue, exported, Date().timeIntervalSince1970,
            ]
        )
    }

    static func remove(_ key: RecordKey, in db: Database) throws {
        try db.execute(
            sql: "DELETE FROM records WHERE scope = ? AND owner = ? AND zone = ? AND name = ?",
            arguments: [key.scope.rawValue, key.owner, key.zoneName, key.recordName]
        )
    }

    static func fetch(_ key: RecordKey, in db: Database) throws -> LocalRecord? {
        try Row.fetchOne(
            db, sql: "SELECT * FROM records WHERE scope = ? AND owner = ? AND zone = ? AND name = ?",
            arguments: [key.scope.rawValue, key.owner, key.zoneName, key.recordName]
        ).map(record(from:))
    }

    static func record(from row: Row) -> LocalRecord {
        let decoder = JSONDecoder()
        let scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        let key = RecordKey(scope: scope, zoneID: ZoneID(zoneName: row["zone"], ownerRecordName: row["owner"]), recordName: row["name"])
        let fieldsJSON: String = row["fields"]
        var record = LocalRecord(
            key: key, recordType: row["type"],
            fields: (try? decoder.decode([String: Field].self, from: Data(fieldsJSON.utf8))) ?? [:], parentName: row["parent"]
        )
        record.changeTag = row["change_tag"]
        if let server: String = row["server_record"] {
            record.serverRecord = try? decoder.decode(StratusModel.Record.self, from: Data(server.utf8))
        }
        return record
    }

    static func historyEntry(from row: Row) -> HistoryEntry {
        let scope = DatabaseScope(rawValue: row["scope"]) ?? .private
        let fieldsJSON: String = row["changed_fields"]
        return HistoryEntry(
            id: row["id"],
            key: RecordKey(scope: scope, zoneID: ZoneID(zoneName: row["zone"], ownerRecordName: row["owner"]), recordName: row["name"]),
            kind: HistoryEntry.Kind(rawValue: row["kind"]) ?? .save,
            changedFields: (try? JSONDecoder().decode([String].self, from: Data(fieldsJSON.utf8))) ?? [],
            author: TransactionAuthor(rawValue: row["author"]), exported: row["exported"]
        )
    }
}
