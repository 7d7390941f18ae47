import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    public func zones(in database: DatabaseKey) async throws(StoreError) -> [StoredZone] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(SQLiteStore.zoneColumns) FROM zones
                    WHERE container = ? AND environment = ? AND scope = ? AND owner = ? AND deleted_seq IS NULL
                    ORDER BY name
                    """,
                arguments: [database.container, database.environment.rawValue, database.scope.rawValue, database.owner]
            ).map(SQLiteStore.zone(from:))
        }
    }

    public func zone(_ zone: ZoneKey) async throws(StoreError) -> StoredZone? {
        try await read { db in try SQLiteStore.fetchZone(zone, in: db) }
    }

    public func createZone(_ zone: ZoneKey, atomic: Bool) async throws(StoreError) -> StoredZone {
        try await write { db in
            if let existing = try SQLiteStore.fetchZone(zone, in: db) { return existing }
            let seq = try SQLiteStore.currentSequence(in: db) + 1
            try SQLiteStore.setSequence(seq, in: db)
            let database = zone.database
            try db.execute(
                sql: """
                    INSERT INTO zones (container, environment, scope, owner, name, atomic, created_seq, last_seq, feed_seq)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    database.container, database.environment.rawValue, database.scope.rawValue, database.owner,
                    zone.name, atomic, seq, seq, seq,
                ]
            )
            return StoredZone(
                id: db.lastInsertedRowID, name: zone.name, atomic: atomic, createdSeq: seq, lastSeq: seq,
                deletedSeq: nil, compactedBelowSeq: 0
            )
        }
    }

    public func deleteZone(_ zone: ZoneKey, reason: ZoneDeletionReason) async throws(StoreError) -> StoredZone {
        try await write { db in
            guard var stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            let seq = try SQLiteStore.currentSequence(in: db) + 1
            try SQLiteStore.setSequence(seq, in: db)
            try QuotaLedger.release(zoneID: stored.id, of: zone.database, in: db)
            try db.execute(sql: "DELETE FROM records WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM record_references WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM record_assets WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM share_coverage WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM shares WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(sql: "DELETE FROM client_change_tokens WHERE zone_id = ?", arguments: [stored.id])
            try db.execute(
                sql: "UPDATE zones SET deleted_seq = ?, feed_seq = ?, deleted_reason = ? WHERE id = ?",
                arguments: [seq, seq, reason.rawValue, stored.id]
            )
            stored.deletedSeq = seq
            stored.deletionReason = reason
            return stored
        }
    }

    public func deletionReason(of zone: ZoneKey) async throws(StoreError) -> ZoneDeletionReason? {
        try await read { db in
            let database = zone.database
            // The latest incarnation of the name (ids grow): a live one has no deletion reason.
            guard let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT deleted_seq, deleted_reason FROM zones
                    WHERE container = ? AND environment = ? AND scope = ? AND owner = ? AND name = ?
                    ORDER BY id DESC LIMIT 1
                    """,
                arguments: [database.container, database.environment.rawValue, database.scope.rawValue, database.owner, zone.name]
            ) else { return nil }
            let deletedSeq: Int64? = row[0]
            let reason: String? = row[1]
            guard deletedSeq != nil else { return nil }
            return reason.flatMap(ZoneDeletionReason.init(rawValue:)) ?? .deleted
        }
    }

    public func compact(_ zone: ZoneKey) async throws(StoreError) -> StoredZone {
        try await write { db in
            guard var stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            try db.execute(sql: "DELETE FROM records WHERE zone_id = ? AND deleted = 1", arguments: [stored.id])
            try db.execute(sql: "UPDATE zones SET compacted_below_seq = last_seq WHERE id = ?", arguments: [stored.id])
            stored.compactedBelowSeq = stored.lastSeq
            return stored
        }
    }

    public func compactDatabase(_ database: DatabaseKey) async throws(StoreError) -> Int64 {
        try await write { db in
            // Every token handed out so far is at or below the current sequence: one step past it,
            // each of them is behind the horizon, and a fetch from the start gets a token at it.
            let horizon = try SQLiteStore.currentSequence(in: db) + 1
            try SQLiteStore.setSequence(horizon, in: db)
            let arguments: StatementArguments = [database.container, database.environment.rawValue, database.scope.rawValue, database.owner]
            let live = "SELECT id FROM zones WHERE container = ? AND environment = ? AND scope = ? AND owner = ? AND deleted_seq IS NULL"
            try db.execute(sql: "DELETE FROM records WHERE deleted = 1 AND zone_id IN (\(live))", arguments: arguments)
            try db.execute(
                sql: "UPDATE zones SET compacted_below_seq = ?, last_seq = ?, feed_seq = ? WHERE id IN (\(live))",
                arguments: [horizon, horizon, horizon] + arguments
            )
            try db.execute(
                sql: "INSERT OR REPLACE INTO database_horizons (container, environment, scope, owner, below_seq) VALUES (?, ?, ?, ?, ?)",
                arguments: arguments + [horizon]
            )
            return horizon
        }
    }

    /// Throws `tokenExpired` for a database token from before the database's compaction horizon.
    static func checkHorizon(_ database: DatabaseKey, after seq: Int64, in db: Database) throws {
        guard seq > 0 else { return }
        let horizon = try Int64.fetchOne(
            db.cachedStatement(
                sql: "SELECT below_seq FROM database_horizons WHERE container = ? AND environment = ? AND scope = ? AND owner = ?"
            ),
            arguments: [database.container, database.environment.rawValue, database.scope.rawValue, database.owner]
        )
        if let horizon, seq < horizon { throw StoreError(.tokenExpired) }
    }

    public func databaseChanges(in database: DatabaseKey, after seq: Int64, deletionsAfter: Int64?, limit: Int)
        async throws(StoreError) -> DatabaseChangePage
    {
        try await read { db in
            let current = try SQLiteStore.currentSequence(in: db)
            guard seq <= current else { throw StoreError(.tokenExpired) }
            try SQLiteStore.checkHorizon(database, after: seq, in: db)
            let floor = deletionsAfter ?? current
            // Each name once, as it is now: a live zone is its name's latest incarnation (ids
            // grow); a deleted one is listed only when no later incarnation has the name.
            let zones = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT \(SQLiteStore.zoneColumns) FROM zones
                        WHERE container = ? AND environment = ? AND scope = ? AND owner = ? AND feed_seq > ?
                            AND (deleted_seq IS NULL OR (deleted_seq > ? AND NOT EXISTS (
                                SELECT 1 FROM zones later
                                WHERE later.container = zones.container AND later.environment = zones.environment
                                    AND later.scope = zones.scope AND later.owner = zones.owner AND later.name = zones.name
                                    AND later.id > zones.id)))
                        ORDER BY feed_seq LIMIT ?
                        """
                ),
                arguments: [
                    database.container, database.environment.rawValue, database.scope.rawValue, database.owner, seq, floor, limit + 1,
                ]
            ).map(SQLiteStore.zone(from:))
            if zones.count > limit {
                let page = Array(zones.prefix(limit))
                return DatabaseChangePage(zones: page, throughSeq: page.last?.feedSeq ?? seq, moreComing: true, deletionsAfter: floor)
            }
            return DatabaseChangePage(zones: zones, throughSeq: max(current, seq), moreComing: false, deletionsAfter: floor)
        }
    }

    public func currentSequence() async throws(StoreError) -> Int64 {
        try await read { db in try SQLiteStore.currentSequence(in: db) }
    }

    public func schema(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [String: [String: FieldType]] {
        try await read { db in
            var schema: [String: [String: FieldType]] = [:]
            let rows = try Row.fetchCursor(
                db,
                sql: "SELECT record_type, field_name, field_type FROM schema_fields WHERE container = ? AND environment = ?",
                arguments: [container, environment.rawValue]
            )
            while let row = try rows.next() {
                let tag: String = row[2]
                guard let type = FieldType(rawValue: tag) else { continue }
                schema[row[0], default: [:]][row[1]] = type
            }
            return schema
        }
    }
}

extension SQLiteStore: ClientChangeTokenStore {
    public func setClientChangeToken(_ token: String, zone: Int64, client: String, asOf seq: Int64) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO client_change_tokens (zone_id, client, token, seq) VALUES (?, ?, ?, ?)
                    ON CONFLICT (zone_id, client) DO UPDATE SET token = excluded.token, seq = excluded.seq
                    WHERE excluded.seq >= client_change_tokens.seq
                    """,
                arguments: [zone, client, token, seq]
            )
        }
    }

    public func clientChangeToken(zone: Int64, client: String) async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(db, sql: "SELECT token FROM client_change_tokens WHERE zone_id = ? AND client = ?", arguments: [zone, client])
        }
    }
}
