import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Shares, acceptance and each participant's shared database feed in PostgreSQL: the SQLite
/// store's rules (``ShareRules``), with acceptance under the writers' lock.
extension PostgresStore: ShareStore {
    public func share(shortGUID: String) async throws(StoreError) -> StoredShare? {
        try await read { tx in try await Self.fetchShare(shortGUID: shortGUID, in: tx) }
    }

    public func shares(in zone: ZoneKey) async throws(StoreError) -> [StoredShare] {
        try await read { tx in
            guard let stored = try await Self.fetchZone(zone, in: tx) else { return [] }
            // Three statements whatever the number of shares: their rows, records and participants.
            let rows = try await tx.all(
                "SELECT \(unescaped: PostgresShareRows.shareColumns) FROM shares WHERE zone_id = \(stored.id) ORDER BY record_name",
                PostgresShareRows.shareRow(from:)
            )
            guard !rows.isEmpty else { return [] }
            let records = try await tx.all("""
                SELECT \(unescaped: Self.recordColumns) FROM records
                WHERE zone_id = \(stored.id) AND record_name = ANY(\(rows.map(\.recordName))) AND NOT deleted
                """) { try Self.record(from: $0) }
            let byName = Dictionary(records.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            let participants = try await PostgresShareRows(tx: tx).participants(inZone: stored.id)
            return rows.compactMap { row in
                byName[row.recordName].map { record in
                    StoredShare(
                        zone: zone, zoneRowID: stored.id, record: record, rootName: row.rootName, shortGUID: row.shortGUID,
                        publicPermission: row.publicPermission, participants: participants[row.recordName] ?? []
                    )
                }
            }
        }
    }

    public func accept(shortGUID: String, by acceptor: Acceptor) async throws(StoreError) -> AcceptOutcome {
        try await write { tx in
            let seq = try await tx.lockSequence() + 1
            guard let share = try await Self.fetchShare(shortGUID: shortGUID, in: tx) else { return .notFound }
            let participants: [StoredParticipant]
            switch ShareRules.accept(share, by: acceptor) {
            case .answer(let outcome): return outcome
            case .save(let list): participants = list
            }
            try await Self.changeParticipants(participants, of: share, user: acceptor.userRecordName, timestamp: acceptor.timestamp, seq: seq, in: tx)
            return try await Self.fetchShare(shortGUID: shortGUID, in: tx).map(AcceptOutcome.accepted) ?? .notFound
        }
    }

    public func sharedZones(of user: String, container: String, environment: ContainerEnvironment) async throws(StoreError) -> [SharedZone] {
        try await all(query("""
            SELECT z.id, z.name, z.atomic, z.created_seq, z.last_seq, z.deleted_seq, z.compacted_below_seq, z.deleted_reason, z.owner, f.seq
            FROM shared_zone_feed f JOIN zones z ON z.id = f.zone_id
            WHERE f.user_record_name = \(user) AND f.visible AND z.deleted_seq IS NULL
                AND z.container = \(container) AND z.environment = \(environment.rawValue)
            ORDER BY z.owner, z.name
            """)) { row in
            let cells = row.makeRandomAccess()
            return SharedZone(
                zone: try Self.zone(from: row), owner: try cells[8].decode(String.self), removed: false, accessSeq: try cells[9].decode(Int64.self)
            )
        }
    }

    public func sharedDatabaseChanges(
        of user: String, container: String, environment: ContainerEnvironment, after seq: Int64, deletionsAfter: Int64?, limit: Int
    ) async throws(StoreError) -> SharedDatabaseChangePage {
        try await read { tx in
            let current = try await Self.currentSequence(in: tx)
            guard seq <= current else { throw StoreError(.tokenExpired) }
            let database = DatabaseKey(container: container, environment: environment, scope: .shared, owner: user)
            try await Self.checkHorizon(database, after: seq, in: tx)
            let floor = deletionsAfter ?? current
            // Each owner's zone name once, as the user sees it now: the entry of its latest
            // incarnation in the user's feed (ids grow); a removed one only when it went after `floor`.
            let zones = try await tx.all("""
                SELECT * FROM (
                    SELECT z.id, z.name, z.atomic, z.created_seq, z.last_seq, z.deleted_seq, z.compacted_below_seq,
                        z.deleted_reason, z.owner, f.seq, f.visible,
                        CASE WHEN f.visible THEN greatest(f.seq, z.last_seq, coalesce(z.deleted_seq, 0)) ELSE f.seq END AS position
                    FROM shared_zone_feed f JOIN zones z ON z.id = f.zone_id
                    WHERE f.user_record_name = \(user) AND z.container = \(container) AND z.environment = \(environment.rawValue)
                        AND NOT EXISTS (
                            SELECT 1 FROM shared_zone_feed lf JOIN zones lz ON lz.id = lf.zone_id
                            WHERE lf.user_record_name = f.user_record_name AND lz.container = z.container
                                AND lz.environment = z.environment AND lz.scope = z.scope AND lz.owner = z.owner
                                AND lz.name = z.name AND lz.id > z.id)
                ) entries WHERE position > \(seq) AND ((visible AND deleted_seq IS NULL) OR position > \(floor))
                ORDER BY position LIMIT \(limit + 1)
                """) { row -> (SharedZone, Int64) in
                let zone = try Self.zone(from: row)
                let cells = row.makeRandomAccess()
                let visible = try cells[10].decode(Bool.self)
                let shared = SharedZone(
                    zone: zone, owner: try cells[8].decode(String.self), removed: !visible || zone.isDeleted,
                    accessSeq: try cells[9].decode(Int64.self)
                )
                return (shared, try cells[11].decode(Int64.self))
            }
            return SharedDatabaseChangePage(entries: zones, limit: limit, after: seq, current: current, deletionsAfter: floor)
        }
    }

    public func hierarchy(rootedAt roots: [String], in zone: ZoneKey) async throws(StoreError) -> Set<String> {
        guard !roots.isEmpty else { return [] }
        return try await read { tx in
            guard let stored = try await Self.fetchZone(zone, in: tx) else { return [] }
            return try await Set(tx.all("""
                WITH RECURSIVE tree(name) AS (
                    SELECT unnest(\(roots)::text[])
                    UNION
                    SELECT r.record_name FROM records r JOIN tree t ON r.zone_id = \(stored.id) AND r.parent_name = t.name
                )
                SELECT name FROM tree
                """) { try $0.decode(String.self) })
        }
    }

    // MARK: - Helpers

    /// Saves a new participant list outside a zone batch (accepting): the share record gets a
    /// new change tag, the zone a new position, and the user's shared feed an entry at `seq`
    /// (the writers' lock is held).
    private static func changeParticipants(
        _ participants: [StoredParticipant], of share: StoredShare, user: String, timestamp: Int64, seq: Int64, in tx: PostgresTransaction
    ) async throws {
        let rows = PostgresShareRows(tx: tx)
        try await tx.setSequence(seq)
        try await rows.replaceParticipants(participants, share: share.record.name, zoneID: share.zoneRowID)
        try await tx.execute("""
            UPDATE records SET seq = \(seq), modified_at = \(timestamp), modified_by = \(user), modified_device = NULL
            WHERE zone_id = \(share.zoneRowID) AND record_name = \(share.record.name)
            """)
        try await tx.execute("UPDATE zones SET last_seq = \(seq), feed_seq = \(seq) WHERE id = \(share.zoneRowID)")
        try await rows.refreshFeed(user: user, zoneID: share.zoneRowID, seq: seq)
    }

    static func fetchShare(shortGUID: String, in tx: PostgresTransaction) async throws -> StoredShare? {
        let found = try await tx.first("""
            SELECT s.record_name, s.root_name, s.short_guid, s.public_permission,
                z.id, z.container, z.environment, z.scope, z.owner, z.name
            FROM shares s JOIN zones z ON z.id = s.zone_id
            WHERE s.short_guid = \(shortGUID) AND z.deleted_seq IS NULL
            """) { row -> (ShareRow, Int64, String, String, String, String, String) in
            let cells = row.makeRandomAccess()
            return (
                try PostgresShareRows.shareRow(from: row), try cells[4].decode(Int64.self), try cells[5].decode(String.self),
                try cells[6].decode(String.self), try cells[7].decode(String.self), try cells[8].decode(String.self),
                try cells[9].decode(String.self)
            )
        }
        guard let (share, zoneRowID, container, environmentName, scopeName, owner, name) = found,
            let environment = ContainerEnvironment(rawValue: environmentName), let scope = DatabaseScope(rawValue: scopeName)
        else { return nil }
        let database = DatabaseKey(container: container, environment: environment, scope: scope, owner: owner)
        return try await assembleShare(share, zone: ZoneKey(database: database, name: name), zoneRowID: zoneRowID, in: tx)
    }

    static func assembleShare(
        _ row: ShareRow, zone: ZoneKey, zoneRowID: Int64, in tx: PostgresTransaction
    ) async throws -> StoredShare? {
        guard let record = try await fetchRecord(row.recordName, zoneID: zoneRowID, in: tx), !record.deleted else { return nil }
        return StoredShare(
            zone: zone, zoneRowID: zoneRowID, record: record, rootName: row.rootName, shortGUID: row.shortGUID,
            publicPermission: row.publicPermission,
            participants: try await PostgresShareRows(tx: tx).participants(of: row.recordName, zoneID: zoneRowID)
        )
    }
}
