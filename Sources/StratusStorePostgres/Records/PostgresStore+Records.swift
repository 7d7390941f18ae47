import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Records and zone change feeds in PostgreSQL. A zone batch is one transaction that takes the
/// writers' lock first; feeds read one snapshot by `(zone_id, seq)`.
extension PostgresStore {
    public func apply(_ batch: ZoneBatch) async throws(StoreError) -> ZoneBatchResult {
        try await groupCommit.submit(PreparedBatch.encoding(batch)).get()
    }

    public func records(named names: [String], in zone: ZoneKey) async throws(StoreError) -> [StoredRecord?] {
        try await read { tx in
            guard let stored = try await Self.fetchZone(zone, in: tx) else { throw StoreError(.zoneNotFound) }
            let found = try await tx.all("""
                SELECT \(unescaped: Self.recordColumns) FROM records
                WHERE zone_id = \(stored.id) AND record_name = ANY(\(names)) AND NOT deleted
                """) { try Self.record(from: $0) }
            let byName = Dictionary(found.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            return names.map { byName[$0] }
        }
    }

    public func changes(
        in zone: ZoneKey, generation: Int64?, after seq: Int64, recordTypes: [String]?, names: Set<String>?, shares: [String], limit: Int
    ) async throws(StoreError) -> ZoneChangePage {
        try await read { tx in
            guard let stored = try await Self.fetchZone(zone, in: tx) else { throw StoreError(.zoneNotFound) }
            // A token of another incarnation, below the compaction horizon, or ahead of every
            // change the zone has had was never issued for this zone as it is.
            if let generation, generation != stored.id || seq < stored.compactedBelowSeq || seq > stored.lastSeq {
                throw StoreError(.tokenExpired)
            }
            var records = try await tx.all("""
                SELECT \(unescaped: Self.recordColumns) FROM records
                WHERE zone_id = \(stored.id) AND seq > \(seq)
                    AND (\(recordTypes == nil) OR record_type = ANY(\(recordTypes ?? [])))
                    AND (\(names == nil) OR record_name = ANY(\(names?.sorted() ?? [])))
                ORDER BY seq LIMIT \(limit + 1)
                """) { try Self.record(from: $0) }
            // Where each entry stands in the feed: its change, or when it entered or left a share.
            var positions = records.map(\.seq)
            if let names, !shares.isEmpty {
                (records, positions) = try await Self.mergeCoverageChanges(
                    into: records, zoneID: stored.id, shares: shares, visible: names, recordTypes: recordTypes, after: seq, limit: limit,
                    in: tx
                )
            }
            if records.count > limit {
                records.removeLast()
                return ZoneChangePage(records: records, throughSeq: positions[limit - 1], moreComing: true, zone: stored)
            }
            return ZoneChangePage(records: records, throughSeq: max(stored.lastSeq, seq), moreComing: false, zone: stored)
        }
    }

    /// A participant's page with what entered or left their hierarchy shares after `seq`
    /// (`share_coverage`), as the SQLite store merges it: a record that entered comes back at the
    /// position it entered, one that left and is not visible comes back as a tombstone.
    static func mergeCoverageChanges(
        into records: [StoredRecord], zoneID: Int64, shares: [String], visible: Set<String>, recordTypes: [String]?,
        after seq: Int64, limit: Int, in tx: PostgresTransaction
    ) async throws -> (records: [StoredRecord], positions: [Int64]) {
        let rows = try await tx.all("""
            SELECT \(unescaped: qualifiedRecordColumns), c.position FROM records r
            JOIN (
                SELECT record_name, max(seq) AS position FROM share_coverage
                WHERE zone_id = \(zoneID) AND seq > \(seq) AND share_name = ANY(\(shares))
                GROUP BY record_name ORDER BY position LIMIT \(limit + 1)
            ) c ON r.record_name = c.record_name
            WHERE r.zone_id = \(zoneID)
            """) { row in (try record(from: row), try row.makeRandomAccess()[14].decode(Int64.self)) }
        return CoverageMerge.merge(records, coverage: rows, visible: visible, recordTypes: recordTypes, limit: limit)
    }
}
