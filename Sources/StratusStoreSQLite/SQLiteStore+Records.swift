import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    public func apply(_ batch: ZoneBatch) async throws(StoreError) -> ZoneBatchResult {
        try await groupCommit.submit(PreparedBatch.encoding(batch)).get()
    }

    public func records(named names: [String], in zone: ZoneKey) async throws(StoreError) -> [StoredRecord?] {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            return try names.map { name in
                let record = try SQLiteStore.fetchRecord(name, zoneID: stored.id, in: db)
                return record?.deleted == false ? record : nil
            }
        }
    }

    public func changes(
        in zone: ZoneKey, generation: Int64?, after seq: Int64, recordTypes: [String]?, names: Set<String>?, shares: [String], limit: Int
    ) async throws(StoreError) -> ZoneChangePage {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            // A token of another incarnation, below the compaction horizon, or ahead of every
            // change the zone has had was never issued for this zone as it is.
            if let generation, generation != stored.id || seq < stored.compactedBelowSeq || seq > stored.lastSeq {
                throw StoreError(.tokenExpired)
            }
            var sql = "SELECT \(SQLiteStore.recordColumns) FROM records WHERE zone_id = ? AND seq > ?"
            var arguments: StatementArguments = [stored.id, seq]
            if let recordTypes {
                sql += " AND record_type IN (\(databaseQuestionMarks(count: recordTypes.count)))"
                arguments += StatementArguments(recordTypes)
            }
            if let names {
                sql += " AND record_name IN (SELECT value FROM json_each(?))"
                arguments += [SQLiteStore.jsonArray(names.sorted())]
            }
            sql += " ORDER BY seq LIMIT ?"
            arguments += [limit + 1]
            var records: [StoredRecord] = []
            records.reserveCapacity(min(limit + 1, 256))
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                records.append(try SQLiteStore.record(from: row))
            }
            // Where each entry stands in the feed: its change, or when it entered or left a share.
            var positions = records.map(\.seq)
            if let names, !shares.isEmpty {
                (records, positions) = try SQLiteStore.mergeCoverageChanges(
                    into: records, zoneID: stored.id, shares: shares, visible: names, recordTypes: recordTypes, after: seq, limit: limit,
                    in: db
                )
            }
            if records.count > limit {
                records.removeLast()
                return ZoneChangePage(records: records, throughSeq: positions[limit - 1], moreComing: true, zone: stored)
            }
            return ZoneChangePage(records: records, throughSeq: max(stored.lastSeq, seq), moreComing: false, zone: stored)
        }
    }

    static func fetchRecord(_ name: String, zoneID: Int64, in db: Database) throws -> StoredRecord? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(recordColumns) FROM records WHERE zone_id = ? AND record_name = ?"
        )
        guard let row = try Row.fetchOne(statement, arguments: [zoneID, name]) else { return nil }
        return try record(from: row)
    }
}

