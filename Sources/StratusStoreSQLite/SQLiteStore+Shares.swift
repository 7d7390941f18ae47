import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore: ShareStore {
    public func share(shortGUID: String) async throws(StoreError) -> StoredShare? {
        try await read { db in try SQLiteStore.fetchShare(shortGUID: shortGUID, in: db) }
    }

    public func shares(in zone: ZoneKey) async throws(StoreError) -> [StoredShare] {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { return [] }
            let rows = try Row.fetchAll(
                db,
                sql: "SELECT record_name, root_name, short_guid, public_permission FROM shares WHERE zone_id = ? ORDER BY record_name",
                arguments: [stored.id]
            )
            return try rows.compactMap { row in
                try SQLiteStore.assembleShare(ShareRows.shareRow(from: row), zone: zone, zoneRowID: stored.id, in: db)
            }
        }
    }

    public func accept(shortGUID: String, by acceptor: Acceptor) async throws(StoreError) -> AcceptOutcome {
        try await write { db in
            guard let share = try SQLiteStore.fetchShare(shortGUID: shortGUID, in: db) else { return .notFound }
            let participants: [StoredParticipant]
            switch ShareRules.accept(share, by: acceptor) {
            case .answer(let outcome): return outcome
            case .save(let list): participants = list
            }
            try SQLiteStore.changeParticipants(participants, of: share, user: acceptor.userRecordName, timestamp: acceptor.timestamp, in: db)
            return try SQLiteStore.fetchShare(shortGUID: shortGUID, in: db).map(AcceptOutcome.accepted) ?? .notFound
        }
    }

    public func sharedZones(of user: String, container: String, environment: ContainerEnvironment) async throws(StoreError) -> [SharedZone] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT z.id, z.name, z.atomic, z.created_seq, z.last_seq, z.deleted_seq, z.compacted_below_seq, z.deleted_reason, z.owner, f.seq
                    FROM shared_zone_feed f JOIN zones z ON z.id = f.zone_id
                    WHERE f.user_record_name = ? AND f.visible = 1 AND z.deleted_seq IS NULL
                        AND z.container = ? AND z.environment = ?
                    ORDER BY z.owner, z.name
                    """,
                arguments: [user, container, environment.rawValue]
            ).map { row in SharedZone(zone: SQLiteStore.zone(from: row), owner: row[8], removed: false, accessSeq: row[9]) }
        }
    }

    public func sharedDatabaseChanges(
        of user: String, container: String, environment: ContainerEnvironment, after seq: Int64, deletionsAfter: Int64?, limit: Int
    ) async throws(StoreError) -> SharedDatabaseChangePage {
        try await read { db in
            let current = try SQLiteStore.currentSequence(in: db)
            guard seq <= current else { throw StoreError(.tokenExpired) }
            let database = DatabaseKey(container: container, environment: environment, scope: .shared, owner: user)
            try SQLiteStore.checkHorizon(database, after: seq, in: db)
            let floor = deletionsAfter ?? current
            // Each owner's zone name once, as the user sees it now: the entry of its latest
            // incarnation in the user's feed (ids grow); a removed one only when it went after `floor`.
            let rows = try Row.fetchAll(
                db.cachedStatement(
                    sql: """
                        SELECT * FROM (
                            SELECT z.id, z.name, z.atomic, z.created_seq, z.last_seq, z.deleted_seq, z.compacted_below_seq,
                                z.deleted_reason, z.owner, f.seq, f.visible,
                                CASE WHEN f.visible = 1 THEN max(f.seq, z.last_seq, coalesce(z.deleted_seq, 0)) ELSE f.seq END
                                    AS position
                            FROM shared_zone_feed f JOIN zones z ON z.id = f.zone_id
                            WHERE f.user_record_name = ? AND z.container = ? AND z.environment = ?
                                AND NOT EXISTS (
                                    SELECT 1 FROM shared_zone_feed lf JOIN zones lz ON lz.id = lf.zone_id
                                    WHERE lf.user_record_name = f.user_record_name AND lz.container = z.container
                                        AND lz.environment = z.environment AND lz.scope = z.scope AND lz.owner = z.owner
                                        AND lz.name = z.name AND lz.id > z.id)
                        ) WHERE position > ? AND ((visible = 1 AND deleted_seq IS NULL) OR position > ?)
                        ORDER BY position LIMIT ?
                        """
                ),
                arguments: [user, container, environment.rawValue, seq, floor, limit + 1]
            )
            let zones = rows.map { row in
                let zone = SQLiteStore.zone(from: row)
                let visible: Bool = row[10]
                return (SharedZone(zone: zone, owner: row[8], removed: !visible || zone.isDeleted, accessSeq: row[9]), row[11] as Int64)
            }
            return SharedDatabaseChangePage(entries: zones, limit: limit, after: seq, current: current, deletionsAfter: floor)
        }
    }

    public func hierarchy(rootedAt roots: [String], in zone: ZoneKey) async throws(StoreError) -> Set<String> {
        guard !roots.isEmpty else { return [] }
        return try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { return [] }
            let names = try String.fetchAll(
                db,
                sql: """
                    WITH RECURSIVE tree(name) AS (
                        SELECT value FROM json_each(?)
                        UNION
                        SELECT r.record_name FROM records r JOIN tree t ON r.zone_id = ? AND r.parent_name = t.name
                    )
                    SELECT name FROM tree
                    """,
                arguments: [SQLiteStore.jsonArray(roots), stored.id]
            )
            return Set(names)
        }
    }

    // MARK: - Helpers

    static func jsonArray(_ names: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(names)) ?? Data("[]".utf8), as: UTF8.self)
    }

    /// Saves a new participant list outside a zone batch (accepting, leaving): the share record
    /// gets a new change tag, the zone a new position, and the user's shared feed an entry.
    private static func changeParticipants(
        _ participants: [StoredParticipant], of share: StoredShare, user: String, timestamp: Int64, in db: Database
    ) throws {
        let rows = ShareRows(db: db)
        let seq = try currentSequence(in: db) + 1
        try setSequence(seq, in: db)
        try rows.replaceParticipants(participants, share: share.record.name, zoneID: share.zoneRowID)
        try db.execute(
            sql: """
                UPDATE records SET seq = ?, modified_at = ?, modified_by = ?, modified_device = NULL
                WHERE zone_id = ? AND record_name = ?
                """,
            arguments: [seq, timestamp, user, share.zoneRowID, share.record.name]
        )
        try db.execute(sql: "UPDATE zones SET last_seq = ?, feed_seq = ? WHERE id = ?", arguments: [seq, seq, share.zoneRowID])
        try rows.refreshFeed(user: user, zoneID: share.zoneRowID, seq: seq)
    }

    static func fetchShare(shortGUID: String, in db: Database) throws -> StoredShare? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT s.record_name, s.root_name, s.short_guid, s.public_permission,
                        z.id, z.container, z.environment, z.scope, z.owner, z.name
                    FROM shares s JOIN zones z ON z.id = s.zone_id
                    WHERE s.short_guid = ? AND z.deleted_seq IS NULL
                    """,
                arguments: [shortGUID]
            ),
            let environment = ContainerEnvironment(rawValue: row[6]),
            let scope = DatabaseScope(rawValue: row[7])
        else { return nil }
        let database = DatabaseKey(container: row[5], environment: environment, scope: scope, owner: row[8])
        return try assembleShare(
            ShareRows.shareRow(from: row), zone: ZoneKey(database: database, name: row[9]), zoneRowID: row[4], in: db
        )
    }

    static func assembleShare(_ row: ShareRow, zone: ZoneKey, zoneRowID: Int64, in db: Database) throws -> StoredShare? {
        guard let record = try fetchRecord(row.recordName, zoneID: zoneRowID, in: db), !record.deleted else {
            return nil
        }
        return StoredShare(
            zone: zone, zoneRowID: zoneRowID, record: record, rootName: row.rootName, shortGUID: row.shortGUID,
            publicPermission: row.publicPermission,
            participants: try ShareRows(db: db).participants(of: row.recordName, zoneID: zoneRowID)
        )
    }
}
