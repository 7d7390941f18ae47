import PostgresNIO
import StratusModel
import StratusStore

/// Queries in PostgreSQL: one statement per page (``PostgresQuerySQL``) in one snapshot with
/// the zones it names, and the plan PostgreSQL would use (`EXPLAIN`), for tests and the console.
extension PostgresStore {
    public func query(_ query: RecordQuery) async throws(StoreError) -> QueryPage {
        try await read { tx in
            let (keys, statement) = try await Self.statement(for: query, in: tx)
            let width = 14 + statement.componentCount
            var records: [StoredRecord] = []
            var zones: [ZoneKey] = []
            var lastComponents: [QueryCursor.Value] = []
            for row in try await tx.rows(statement.query) {
                if records.count == query.limit {
                    return QueryPage(records: records, zones: zones, next: QueryCursor(values: lastComponents))
                }
                let cells = row.makeRandomAccess()
                records.append(try Self.record(from: row))
                zones.append(keys[try cells[width].decode(Int64.self)] ?? query.zone)
                lastComponents = try (14..<width).map { PostgresQuerySQL.cursorValue(ofJSON: try cells[$0].decode(String?.self)) }
            }
            return QueryPage(records: records, zones: zones, next: nil)
        }
    }

    public func queryPlan(_ query: RecordQuery) async throws(StoreError) -> [String] {
        try await read { tx in
            let statement = try await Self.statement(for: query, in: tx).1
            var explain = statement.query
            explain.sql = "EXPLAIN " + explain.sql
            return try await tx.all(explain) { try $0.decode(String.self) }
        }
    }

    /// The query's live zones by row ID, and its statement. - Throws: `zoneNotFound` when none is live.
    private static func statement(for query: RecordQuery, in tx: PostgresTransaction) async throws -> ([Int64: ZoneKey], PostgresQuerySQL) {
        var keys: [Int64: ZoneKey] = [:]
        for key in query.zones {
            if let zone = try await fetchZone(key, in: tx) { keys[zone.id] = key }
        }
        guard !keys.isEmpty else { throw StoreError(.zoneNotFound) }
        return (keys, try PostgresQuerySQL(query, zoneIDs: keys.keys.sorted()))
    }
}
