import PostgresNIO
import StratusModel
import StratusStore

/// Zones and the database change feed in PostgreSQL: the same rules as the SQLite store. Writers
/// take the change sequence's row lock first (``PostgresTransaction/lockSequence()``).
extension PostgresStore {
    public func zones(in database: DatabaseKey) async throws(StoreError) -> [StoredZone] {
        try await all(query("""
            SELECT \(unescaped: Self.zoneColumns) FROM zones
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue)
                AND scope = \(database.scope.rawValue) AND owner = \(database.owner) AND deleted_seq IS NULL
            ORDER BY name
            """), Self.zone(from:))
    }

    public func zone(_ zone: ZoneKey) async throws(StoreError) -> StoredZone? {
        try await readZone(zone)
    }

    public func createZone(_ zone: ZoneKey, atomic: Bool) async throws(StoreError) -> StoredZone {
        try await write { tx in
            let seq = try await tx.lockSequence() + 1
            if let existing = try await Self.fetchZone(zone, in: tx) { return existing }
            try await tx.setSequence(seq)
            let database = zone.database
            let id = try await tx.first("""
                INSERT INTO zones (container, environment, scope, owner, name, atomic, created_seq, last_seq, feed_seq)
                VALUES (\(database.container), \(database.environment.rawValue), \(database.scope.rawValue), \(database.owner),
                        \(zone.name), \(atomic), \(seq), \(seq), \(seq))
                RETURNING id
                """) { try $0.decode(Int64.self) } ?? 0
            return StoredZone(id: id, name: zone.name, atomic: atomic, createdSeq: seq, lastSeq: seq, deletedSeq: nil, compactedBelowSeq: 0)
        }
    }

    public func deleteZone(_ zone: ZoneKey, reason: ZoneDeletionReason) async throws(StoreError) -> StoredZone {
        try await write { tx in
            let seq = try await tx.lockSequence() + 1
            guard var stored = try await Self.fetchZone(zone, in: tx) else { throw StoreError(.zoneNotFound) }
            try await tx.setSequence(seq)
            try await PostgresQuotaLedger.release(zoneID: stored.id, of: zone.database, in: tx)
            let id = stored.id
            try await tx.execute("DELETE FROM records WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM record_references WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM record_assets WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM share_coverage WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM share_participants WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM shares WHERE zone_id = \(id)")
            try await tx.execute("DELETE FROM client_change_tokens WHERE zone_id = \(id)")
            try await tx.execute(
                "UPDATE zones SET deleted_seq = \(seq), feed_seq = \(seq), deleted_reason = \(reason.rawValue) WHERE id = \(id)"
            )
            stored.deletedSeq = seq
            stored.deletionReason = reason
            return stored
        }
    }

    public func deletionReason(of zone: ZoneKey) async throws(StoreError) -> ZoneDeletionReason? {
        let database = zone.database
        // The latest incarnation of the name (ids grow): a live one has no deletion reason.
        let latest = try await first(query("""
            SELECT deleted_seq, deleted_reason FROM zones
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue)
                AND scope = \(database.scope.rawValue) AND owner = \(database.owner) AND name = \(zone.name)
            ORDER BY id DESC LIMIT 1
            """)) { row in try row.decode((Int64?, String?).self) }
        guard let latest, latest.0 != nil else { return nil }
        return latest.1.flatMap(ZoneDeletionReason.init(rawValue:)) ?? .deleted
    }

    public func compact(_ zone: ZoneKey) async throws(StoreError) -> StoredZone {
        try await write { tx in
            _ = try await tx.lockSequence()
            guard var stored = try await Self.fetchZone(zone, in: tx) else { throw StoreError(.zoneNotFound) }
            try await tx.execute("DELETE FROM records WHERE zone_id = \(stored.id) AND deleted")
            try await tx.execute("UPDATE zones SET compacted_below_seq = last_seq WHERE id = \(stored.id)")
            stored.compactedBelowSeq = stored.lastSeq
            return stored
        }
    }

    public func compactDatabase(_ database: DatabaseKey) async throws(StoreError) -> Int64 {
        try await write { tx in
            // Every token handed out so far is at or below the current sequence: one step past it,
            // each of them is behind the horizon, and a fetch from the start gets a token at it.
            let horizon = try await tx.lockSequence() + 1
            try await tx.setSequence(horizon)
            let (container, environment, scope, owner) = (database.container, database.environment.rawValue, database.scope.rawValue, database.owner)
            try await tx.execute("""
                DELETE FROM records WHERE deleted AND zone_id IN (
                    SELECT id FROM zones WHERE container = \(container) AND environment = \(environment) AND scope = \(scope)
                        AND owner = \(owner) AND deleted_seq IS NULL)
                """)
            try await tx.execute("""
                UPDATE zones SET compacted_below_seq = \(horizon), last_seq = \(horizon), feed_seq = \(horizon)
                WHERE container = \(container) AND environment = \(environment) AND scope = \(scope) AND owner = \(owner)
                    AND deleted_seq IS NULL
                """)
            try await tx.execute("""
                INSERT INTO database_horizons (container, environment, scope, owner, below_seq)
                VALUES (\(container), \(environment), \(scope), \(owner), \(horizon))
                ON CONFLICT (container, environment, scope, owner) DO UPDATE SET below_seq = EXCLUDED.below_seq
                """)
            return horizon
        }
    }

    /// Throws `tokenExpired` for a database token from before the database's compaction horizon.
    static func checkHorizon(_ database: DatabaseKey, after seq: Int64, in tx: PostgresTransaction) async throws {
        guard seq > 0 else { return }
        let horizon = try await tx.first("""
            SELECT below_seq FROM database_horizons
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue)
                AND scope = \(database.scope.rawValue) AND owner = \(database.owner)
            """) { try $0.decode(Int64.self) }
        if let horizon, seq < horizon { throw StoreError(.tokenExpired) }
    }

    public func databaseChanges(in database: DatabaseKey, after seq: Int64, deletionsAfter: Int64?, limit: Int)
        async throws(StoreError) -> DatabaseChangePage
    {
        try await read { tx in
            let current = try await Self.currentSequence(in: tx)
            guard seq <= current else { throw StoreError(.tokenExpired) }
            try await Self.checkHorizon(database, after: seq, in: tx)
            let floor = deletionsAfter ?? current
            // Each name once, as it is now: a live zone is its name's latest incarnation (ids
            // grow); a deleted one is listed only when no later incarnation has the name.
            let zones = try await tx.all("""
                SELECT \(unescaped: Self.zoneColumns) FROM zones
                WHERE container = \(database.container) AND environment = \(database.environment.rawValue)
                    AND scope = \(database.scope.rawValue) AND owner = \(database.owner) AND feed_seq > \(seq)
                    AND (deleted_seq IS NULL OR (deleted_seq > \(floor) AND NOT EXISTS (
                        SELECT 1 FROM zones later
                        WHERE later.container = zones.container AND later.environment = zones.environment
                            AND later.scope = zones.scope AND later.owner = zones.owner AND later.name = zones.name
                            AND later.id > zones.id)))
                ORDER BY feed_seq LIMIT \(limit + 1)
                """, Self.zone(from:))
            if zones.count > limit {
                let page = Array(zones.prefix(limit))
                return DatabaseChangePage(zones: page, throughSeq: page.last?.feedSeq ?? seq, moreComing: true, deletionsAfter: floor)
            }
            return DatabaseChangePage(zones: zones, throughSeq: max(current, seq), moreComing: false, deletionsAfter: floor)
        }
    }

    public func currentSequence() async throws(StoreError) -> Int64 {
        try await read { tx in try await Self.currentSequence(in: tx) }
    }
}

extension PostgresStore: ClientChangeTokenStore {
    public func setClientChangeToken(_ token: String, zone: Int64, client: String, asOf seq: Int64) async throws(StoreError) {
        try await query("""
            INSERT INTO client_change_tokens (zone_id, client, token, seq) VALUES (\(zone), \(client), \(token), \(seq))
            ON CONFLICT (zone_id, client) DO UPDATE SET token = EXCLUDED.token, seq = EXCLUDED.seq
            WHERE EXCLUDED.seq >= client_change_tokens.seq
            """)
    }

    public func clientChangeToken(zone: Int64, client: String) async throws(StoreError) -> String? {
        try await first(query("SELECT token FROM client_change_tokens WHERE zone_id = \(zone) AND client = \(client)")) {
            try $0.decode(String.self)
        }
    }
}
