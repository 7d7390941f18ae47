import Foundation
import GRDB
import StratusModel

/// The sync side of the store: what history still owes the server, turning local records into
/// server records and back, and importing server changes with a field-level merge.
extension LocalStore {
    /// Local changes not yet on the server, one per record (the latest kind), oldest first.
    /// Imported changes never appear here.
    public func pendingExports(in scope: DatabaseScope) throws -> [PendingExport] {
        try pool.read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT owner, zone, name, MAX(id) AS last FROM history
                    WHERE exported = 0 AND author != ? AND scope = ?
                    GROUP BY owner, zone, name ORDER BY last
                    """,
                arguments: [TransactionAuthor.syncImport.rawValue, scope.rawValue]
            )
            return try rows.map { row in
                let key = RecordKey(scope: scope, zoneID: ZoneID(zoneName: row["zone"], ownerRecordName: row["owner"]), recordName: row["name"])
                let last: Int64 = row["last"]
                let kind = try String.fetchOne(db, sql: "SELECT kind FROM history WHERE id = ?", arguments: [last])
                return PendingExport(key: key, kind: HistoryEntry.Kind(rawValue: kind ?? "save") ?? .save, throughHistoryID: last)
            }
        }
    }

    /// The fields of a record changed locally and not yet exported, and whether the only such
    /// change is a re-upload after its zone was reset (no edit of the user's since).
    func pendingFields(_ key: RecordKey, in db: Database) throws -> (fields: Set<String>, deleted: Bool, reuploadOnly: Bool) {
        let rows = try Row.fetchAll(
            db,
            sql: """
                SELECT kind, changed_fields, author FROM history
                WHERE exported = 0 AND author != ? AND scope = ? AND owner = ? AND zone = ? AND name = ? ORDER BY id
                """,
            arguments: [TransactionAuthor.syncImport.rawValue, key.scope.rawValue, key.owner, key.zoneName, key.recordName]
        )
        var fields = Set<String>()
        var deleted = false
        for row in rows {
            let json: String = row["changed_fields"]
            fields.formUnion((try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? [])
            deleted = (row["kind"] as String) == HistoryEntry.Kind.delete.rawValue
        }
        let reuploadOnly = !rows.isEmpty && rows.allSatisfy { ($0["author"] as String) == TransactionAuthor.syncReupload.rawValue }
        return (fields, deleted, reuploadOnly)
    }

    /// The fields of a record a pending local change cleared (changed, not yet exported, and with
    /// no value now), by local name: the next send clears them on the server, those keys alone.
    /// None for a record the store no longer holds or whose pending change is a deletion.
    public func pendingClearedFields(_ key: RecordKey) throws -> [String] {
        try pool.read { db in
            let pending = try pendingFields(key, in: db)
            guard !pending.deleted, let local = try LocalStore.fetch(key, in: db) else { return [] }
            return pending.fields.filter { local.fields[$0] == nil }.sorted()
        }
    }

    /// Drops the assets of a record whose files are gone from this device and that the server
    /// does not hold on it yet (the file was deleted before the send read it): each such field
    /// goes back to the server's value, or to no value when the server has none. What an app
    /// does when CloudKit fails the record for its file (`assetFileNotFound`): the rest of the
    /// change stays pending and is saved again. Answers the fields dropped, by local name.
    @discardableResult
    public func dropMissingAssets(_ key: RecordKey) throws -> [String] {
        try pool.write { db in
            guard var local = try LocalStore.fetch(key, in: db) else { return [] }
            let server = local.serverRecord?.fields ?? [:]
            var dropped: [String] = []
            for (name, field) in local.fields where field.type.isAsset {
                let serverField = server[naming.serverName(name)]
                let held = Set(serverField?.value.assets.compactMap(\.fileChecksum) ?? [])
                let gone = field.value.assets.compactMap(\.fileChecksum).contains { !held.contains($0) && !assets.contains($0) }
                guard gone else { continue }
                local.fields[name] = serverField
                dropped.append(name)
            }
            guard !dropped.isEmpty else { return [] }
            try write(local, in: db)
            return dropped.sorted()
        }
    }

    /// The operation that uploads a record's local state: an update against the change tag it is
    /// based on, or a create for a record the server has not seen.
    public func uploadOperation(for key: RecordKey) throws -> RecordOperation? {
        guard let local = try record(key) else { return nil }
        var record = StratusModel.Record(
            recordName: key.recordName, recordType: naming.serverName(local.recordType), recordChangeTag: local.changeTag,
            fields: serverFields(of: local)
        )
        record.parent = local.parentName.map { RecordPointer(recordName: $0) }
        return RecordOperation(local.changeTag == nil ? .create : .update, record)
    }

    /// A record's fields as the server spells them. With Core Data naming every record but a share
    /// also carries `CD_entityName`: the concrete entity the server's version names (another
    /// client's sub-entity is kept), else the record's type.
    public func serverFields(of local: LocalRecord) -> [String: Field] {
        var fields = Dictionary(local.fields.map { (naming.serverName($0.key), $0.value) }, uniquingKeysWith: { _, new in new })
        if naming == .coreData, !ShareNames.isShareType(local.recordType), !ShareNames.isShareType(local.serverRecord?.recordType) {
            var entity = local.recordType
            if case .string(let named)? = local.serverRecord?.fields?[RecordNaming.entityNameField]?.value, !named.isEmpty {
                entity = named
            }
            fields[RecordNaming.entityNameField] = Field.string(entity)
        }
        return fields
    }

    /// Marks a record's history up to `historyID` as exported.
    public func markExported(_ key: RecordKey, through historyID: Int64) throws {
        try pool.write { db in try LocalStore.markExported(key, through: historyID, in: db) }
    }

    static func markExported(_ key: RecordKey, through historyID: Int64, in db: Database) throws {
        try db.execute(
            sql: "UPDATE history SET exported = 1 WHERE scope = ? AND owner = ? AND zone = ? AND name = ? AND id <= ?",
            arguments: [key.scope.rawValue, key.owner, key.zoneName, key.recordName, historyID]
        )
    }

    /// Records the server's answer to an upload: the new change tag and server version; local
    /// values changed meanwhile stay, and stay pending.
    public func uploaded(_ server: StratusModel.Record, key: RecordKey, through historyID: Int64) throws {
        try pool.write { db in
            if var local = try LocalStore.fetch(key, in: db) {
                local.changeTag = server.recordChangeTag
                local.serverRecord = server
                try write(local, in: db)
            }
            try LocalStore.markExported(key, through: historyID, in: db)
        }
    }

    /// Imports a server record with a field-level merge: fields changed locally and not yet
    /// exported keep their local values; every other field takes the server's. A record deleted
    /// locally and not yet exported stays deleted. A re-upload after a reset that meets the
    /// server's record (another device uploaded it again, or edited it since) is dropped: only
    /// what the server has not seen goes up again, so an old copy never overwrites a newer one.
    public func importRecord(_ server: StratusModel.Record, scope: DatabaseScope) throws {
        guard let name = server.recordName, let zoneID = server.zoneID else { return }
        let key = RecordKey(scope: scope, zoneID: zoneID, recordName: name)
        if server.deleted == true { return try importDeletion(key) }
        try pool.write { db in
            var pending = try pendingFields(key, in: db)
            if pending.reuploadOnly {
                try LocalStore.markExported(key, through: .max, in: db)
                pending = ([], false, false)
            }
            if pending.deleted { return }
            let existing = try LocalStore.fetch(key, in: db)
            var fields: [String: Field] = [:]
            // `CD_entityName` is Core Data's bookkeeping, not an attribute: the upload writes it again.
            for (fieldName, field) in server.fields ?? [:] where !naming.isBookkeeping(fieldName) {
                fields[naming.localName(fieldName)] = field
            }
            for fieldName in pending.fields {
                fields[fieldName] = existing?.fields[fieldName]
            }
            var record = LocalRecord(
                key: key, recordType: naming.localName(server.recordType ?? existing?.recordType ?? ""), fields: fields,
                parentName: server.parent?.recordName
            )
            record.changeTag = server.recordChangeTag
            record.serverRecord = server
            try write(record, in: db)
            // A share is CloudKit's bookkeeping, not the app's data: it makes no history transaction.
            if !ShareNames.isShareType(server.recordType) {
                try appendHistory(key, .save, fields: fields.keys.sorted(), author: .syncImport, exported: true, in: db)
            }
        }
    }

    /// Imports a server deletion: the record goes, with any change to it still pending (a
    /// deletion of its own still unsent is answered by it too).
    public func importDeletion(_ key: RecordKey) throws {
        try pool.write { db in
            guard try LocalStore.fetch(key, in: db) != nil else {
                return try LocalStore.markExported(key, through: .max, in: db)
            }
            try LocalStore.remove(key, in: db)
            try LocalStore.markExported(key, through: .max, in: db)
            try appendHistory(key, .delete, fields: [], author: .syncImport, exported: true, in: db)
        }
    }

    /// Forgets what the server knew of a record (its change tag and server version) and keeps
    /// every local value: its next upload creates it again. What a device does when the record's
    /// zone was deleted on the server and is being re-created (Apple's `zoneNotFound` recipe).
    public func forgetServerState(_ key: RecordKey) throws {
        try pool.write { db in
            guard var local = try LocalStore.fetch(key, in: db) else { return }
            local.changeTag = nil
            local.serverRecord = nil
            try write(local, in: db)
        }
    }

    /// Queues every record of a zone for upload again with its local values, as records the server
    /// never saw (no change tag): after the zone was reset on the server. Shares are the
    /// server's bookkeeping and go instead. Returns how many records were queued.
    @discardableResult
    public func requeueZone(_ zoneID: ZoneID, scope: DatabaseScope) throws -> Int {
        try pool.write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM records WHERE scope = ? AND zone = ? AND owner = ?",
                arguments: [scope.rawValue, zoneID.zoneName, zoneID.ownerRecordName ?? ZoneID.currentUserOwnerName]
            )
            var queued = 0
            for var record in rows.map(LocalStore.record(from:)) {
                if ShareNames.isShareType(record.serverRecord?.recordType) {
                    try LocalStore.remove(record.key, in: db)
                    continue
                }
                record.changeTag = nil
                record.serverRecord = nil
                try write(record, in: db)
                try appendHistory(record.key, .save, fields: record.fields.keys.sorted(), author: .syncReupload, exported: false, in: db)
                queued += 1
            }
            return queued
        }
    }

    /// Puts a record back to its last server version (or removes it if the server never had it)
    /// and drops its pending changes: what a device does when the server refuses them.
    public func revertToServer(_ key: RecordKey) throws {
        guard let server = try record(key)?.serverRecord else { return try importDeletion(key) }
        try markExported(key, through: .max)
        try importRecord(server, scope: key.scope)
    }

    /// Removes the records of a zone that have no pending local change: before a zone is fetched
    /// again from scratch (expired token), so deletions missed meanwhile do not linger.
    public func forgetUnchangedRecords(in zoneID: ZoneID, scope: DatabaseScope) throws {
        try pool.write { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT * FROM records WHERE scope = ? AND zone = ? AND owner = ?",
                arguments: [scope.rawValue, zoneID.zoneName, zoneID.ownerRecordName ?? ZoneID.currentUserOwnerName]
            )
            for record in rows.map(LocalStore.record(from:)) where try pendingFields(record.key, in: db).fields.isEmpty {
                try LocalStore.remove(record.key, in: db)
            }
        }
    }
}
