import Foundation
import GRDB
import StratusModel
import StratusStore

/// Turns a ``RecordQuery`` into one parameterized SQL statement: filters in the WHERE clause,
/// sort keys (missing values last, then the record name) in ORDER BY, the cursor as a keyset
/// condition. Field names are validated identifiers; every value is a bound argument.
struct QuerySQL {
    private(set) var sql = ""
    private(set) var arguments = StatementArguments()
    /// How many sort component columns follow the record columns in each row.
    private(set) var componentCount = 0

    /// - Parameter indexes: the expression indexes on `records`: name → its `CREATE INDEX` SQL.
    init(_ query: RecordQuery, zoneID: Int64, indexes: [String: String] = [:]) throws {
        try self.init(query, zoneIDs: [zoneID], indexes: indexes)
    }

    /// Several zones (`zoneWide`): rows carry `zone_id` as a sort component before the record
    /// name, since a name is unique only within its zone.
    init(_ query: RecordQuery, zoneIDs: [Int64], indexes: [String: String] = [:]) throws {
        var conditions = [
            zoneIDs.count == 1 ? "zone_id = ?" : "zone_id IN (\(databaseQuestionMarks(count: zoneIDs.count)))",
            "record_type = ?", "deleted = 0",
        ]
        arguments += StatementArguments(zoneIDs)
        arguments += [query.recordType]
        for predicate in query.predicates {
            conditions.append(try condition(for: predicate))
        }
        if let names = query.names {
            conditions.append("record_name IN (SELECT value FROM json_each(?))")
            arguments += [SQLiteStore.jsonArray(names.sorted())]
        }
        var components: [(expression: String, ascending: Bool)] = []
        // A filter that rejects missing values makes the "missing last" component constant:
        // leaving it out lets an index on the field deliver rows already in order.
        let nullRejecting: Set<QueryComparator> = [.equals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .in, .beginsWith]
        let present = Set(query.predicates.filter { nullRejecting.contains($0.comparator) }.map(\.operand))
        for key in query.sortKeys {
            let expression = try key.near.map { try distance(of: key.operand, from: $0) } ?? QuerySQL.expression(for: key.operand)
            if key.near != nil || !present.contains(key.operand) {
                components.append(("(\(expression) IS NULL)", true))
            }
            components.append((expression, key.ascending))
        }
        if zoneIDs.count > 1 { components.append(("zone_id", true)) }
        components.append(("record_name", true))
        componentCount = components.count
        if let cursor = query.after {
            guard cursor.values.count == components.count else {
                throw StoreError(.invalid, "continuationMarker does not belong to this query")
            }
            conditions.append(keyset(components, cursor.values))
        }
        let selected = components.map(\.expression).joined(separator: ", ")
        let order = components.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        sql = """
            SELECT \(SQLiteStore.recordColumns), \(selected), zone_id FROM records\(QuerySQL.indexHint(query, indexes))
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT ?
            """
        arguments += [query.limit + 1]
    }

    /// The name of a user field's SQL expression index.
    static func indexName(of field: String) -> String {
        "records_field_" + field.replacingOccurrences(of: ".", with: "__")
    }

    /// `INDEXED BY` the expression index of the first filter that can search through one.
    /// Without statistics SQLite prefers the primary key's `zone_id` prefix to an expression
    /// index, scanning the zone; the hint makes an indexed query search.
    /// Only an index over the very expression the filter reads is named (a REFERENCE field is
    /// indexed by the referenced name), so the hint can never leave SQLite without a plan.
    private static func indexHint(_ query: RecordQuery, _ indexes: [String: String]) -> String {
        let searchable: Set<QueryComparator> = [.equals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .in]
        for predicate in query.predicates where searchable.contains(predicate.comparator) {
            guard case .field(let name, _) = predicate.operand, let definition = indexes[indexName(of: name)],
                let expression = try? expression(for: predicate.operand), definition.contains(expression)
            else { continue }
            return " INDEXED BY \(indexName(of: name).quotedDatabaseIdentifier)"
        }
        return ""
    }

    // MARK: - Operands

    static func expression(for operand: RecordQuery.Operand) throws -> String {
        switch operand {
        case .field(let name, let reference):
            return "json_extract(fields, '\(try path(name, reference ? ".value.recordName" : ".value"))')"
        case .recordName: return "record_name"
        case .createdTimestamp: return "created_at"
        case .modifiedTimestamp: return "modified_at"
        case .createdBy: return "created_by"
        case .modifiedBy: return "modified_by"
        case .allStrings:
            return "(SELECT group_concat(json_extract(f.value, '$.value'), ' ') FROM json_each(records.fields) AS f"
                + " WHERE json_extract(f.value, '$.type') = 'STRING')"
        }
    }

    /// The JSON path of a field; the name is checked so it can never close the quoted path.
    static func path(_ name: String, _ suffix: String) throws -> String {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ".") }) else {
            throw StoreError(.failure, "invalid field name in query")
        }
        return "$.\"\(name)\"\(suffix)"
    }

    /// The distance of a LOCATION field from `point`. The point's coordinates are written as
    /// numeric literals (checked finite), not bound, because a sort expression appears in the
    /// select list, ORDER BY and the keyset, where bound arguments would fall out of order.
    private func distance(of operand: RecordQuery.Operand, from point: Location) throws -> String {
        guard case .field(let name, _) = operand else { throw StoreError(.failure, "distance of a system field") }
        guard point.latitude.isFinite, point.longitude.isFinite else { throw StoreError(.failure, "location not finite") }
        return "stratus_distance(json_extract(fields, '\(try QuerySQL.path(name, ".value.latitude"))'), "
            + "json_extract(fields, '\(try QuerySQL.path(name, ".value.longitude"))'), \(point.latitude), \(point.longitude))"
    }

    // MARK: - Filters

    private mutating func bind(_ value: FieldValue) {
        arguments += [QuerySQL.databaseValue(of: value)]
    }

    private mutating func bindList(_ value: FieldValue) -> String {
        let items: [FieldValue]
        if case .list(let list) = value { items = list } else { items = [value] }
        for item in items { bind(item) }
        return items.map { _ in "?" }.joined(separator: ", ")
    }

    private static func count(_ value: FieldValue) -> Int {
        if case .list(let items) = value { return Set(items.map(databaseValue(of:))).count }
        return 1
    }

    private mutating func condition(for predicate: RecordQuery.Predicate) throws -> String {
        let operand = predicate.operand
        let e = try QuerySQL.expression(for: operand)
        switch predicate.comparator {
        case .equals: bind(predicate.value); return "\(e) = ?"
        case .notEquals: bind(predicate.value); return "(\(e) IS NULL OR \(e) <> ?)"
        case .lessThan: bind(predicate.value); return "\(e) < ?"
        case .lessThanOrEquals: bind(predicate.value); return "\(e) <= ?"
        case .greaterThan: bind(predicate.value); return "\(e) > ?"
        case .greaterThanOrEquals: bind(predicate.value); return "\(e) >= ?"
        case .in: return "\(e) IN (\(bindList(predicate.value)))"
        case .notIn: return "(\(e) IS NULL OR \(e) NOT IN (\(bindList(predicate.value))))"
        case .beginsWith: bind(predicate.value); bind(predicate.value); return "substr(\(e), 1, length(?)) = ?"
        case .notBeginsWith:
            bind(predicate.value); bind(predicate.value)
            return "(\(e) IS NULL OR substr(\(e), 1, length(?)) <> ?)"
        case .containsAllTokens, .containsAnyTokens:
            return tokens(in: e, predicate.value, all: predicate.comparator == .containsAllTokens)
        case .near:
            guard case .location(let point) = predicate.value, let radius = predicate.distance else {
                throw StoreError(.failure, "NEAR needs a location and a distance")
            }
            let distance = try distance(of: operand, from: point)
            arguments += [radius]
            return "\(distance) <= ?"
        default:
            return try listCondition(predicate)
        }
    }

    /// Word tokens, case-insensitive: the field's text is lower-cased, punctuation becomes spaces.
    private mutating func tokens(in e: String, _ value: FieldValue, all: Bool) -> String {
        guard case .string(let text) = value else { return all ? "1" : "0" }
        let words = RecordQuery.searchWords(text)
        guard !words.isEmpty else { return all ? "1" : "0" }
        var normalized = "lower(\(e))"
        for mark in RecordQuery.tokenPunctuation {
            normalized = "replace(\(normalized), '\(mark == "'" ? "''" : mark)', ' ')"
        }
        let terms = words.map { word -> String in
            arguments += [" \(word) "]
            return "instr(' ' || \(normalized) || ' ', ?) > 0"
        }
        return "(" + terms.joined(separator: all ? " AND " : " OR ") + ")"
    }

    private mutating func listCondition(_ predicate: RecordQuery.Predicate) throws -> String {
        guard case .field(let name, let reference) = predicate.operand else {
            throw StoreError(.failure, "list comparator on a system field")
        }
        let each = "json_each(records.fields, '\(try QuerySQL.path(name, ".value"))') AS j"
        let element = reference ? "json_extract(j.value, '$.recordName')" : "j.value"
        switch predicate.comparator {
        case .listContains, .notListContains:
            bind(predicate.value)
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE \(element) = ?)"
            return predicate.comparator == .listContains ? exists : "NOT \(exists)"
        case .listContainsAny, .notListContainsAny:
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE \(element) IN (\(bindList(predicate.value))))"
            return predicate.comparator == .listContainsAny ? exists : "NOT \(exists)"
        case .listContainsAll, .notListContainsAll:
            let wanted = QuerySQL.count(predicate.value)
            let matched = "(SELECT COUNT(DISTINCT \(element)) FROM \(each) WHERE \(element) IN (\(bindList(predicate.value))))"
            arguments += [wanted]
            return predicate.comparator == .listContainsAll ? "\(matched) = ?" : "\(matched) <> ?"
        case .listMemberBeginsWith, .notListMemberBeginsWith:
            bind(predicate.value); bind(predicate.value)
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE substr(\(element), 1, length(?)) = ?)"
            return predicate.comparator == .listMemberBeginsWith ? exists : "NOT \(exists)"
        default:
            throw StoreError(.failure, "unhandled comparator \(predicate.comparator.rawValue)")
        }
    }

    // MARK: - Keyset

    /// Rows strictly after `values` in the order of `components`.
    private mutating func keyset(_ components: [(expression: String, ascending: Bool)], _ values: [QueryCursor.Value]) -> String {
        var alternatives: [String] = []
        for index in components.indices {
            // Nothing sorts strictly after a missing value within its group.
            if case .null = values[index] { continue }
            var terms: [String] = []
            for earlier in 0..<index {
                terms.append("\(components[earlier].expression) IS ?")
                arguments += [QuerySQL.databaseValue(of: values[earlier])]
            }
            terms.append("\(components[index].expression) \(components[index].ascending ? ">" : "<") ?")
            arguments += [QuerySQL.databaseValue(of: values[index])]
            alternatives.append("(" + terms.joined(separator: " AND ") + ")")
        }
        return alternatives.isEmpty ? "0" : "(" + alternatives.joined(separator: " OR ") + ")"
    }

    // MARK: - Values

    static func databaseValue(of value: FieldValue) -> DatabaseValue {
        switch value {
        case .string(let text): text.databaseValue
        case .int64(let number), .timestamp(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .bytes(let data): data.base64EncodedString().databaseValue
        case .reference(let reference): reference.recordName.databaseValue
        case .location, .asset, .list: .null
        }
    }

    static func databaseValue(of value: QueryCursor.Value) -> DatabaseValue {
        switch value {
        case .null: .null
        case .integer(let number): number.databaseValue
        case .real(let number): number.databaseValue
        case .text(let text): text.databaseValue
        }
    }

    static func cursorValue(of value: DatabaseValue) -> QueryCursor.Value {
        switch value.storage {
        case .null: .null
        case .int64(let number): .integer(number)
        case .double(let number): .real(number)
        case .string(let text): .text(text)
        case .blob(let data): .text(data.base64EncodedString())
        }
    }
}

extension SQLiteStore {
    /// `stratus_distance(lat1, lon1, lat2, lon2)`: metres on the earth's surface (haversine), NULL
    /// when a coordinate is missing. Registered on every connection for NEAR.
    static let distanceFunction = DatabaseFunction("stratus_distance", argumentCount: 4, pure: true) { values in
        let coordinates = values.compactMap { Double.fromDatabaseValue($0) }
        guard coordinates.count == 4 else { return nil }
        return RecordQuery.metres(fromLatitude: coordinates[0], fromLongitude: coordinates[1], toLatitude: coordinates[2], toLongitude: coordinates[3])
    }

    public func query(_ query: RecordQuery) async throws(StoreError) -> QueryPage {
        try await read { db in
            var keys: [Int64: ZoneKey] = [:]
            for key in query.zones {
                if let zone = try SQLiteStore.fetchZone(key, in: db) { keys[zone.id] = key }
            }
            guard !keys.isEmpty else { throw StoreError(.zoneNotFound) }
            let statement = try QuerySQL(query, zoneIDs: keys.keys.sorted(), indexes: SQLiteStore.expressionIndexes(in: db))
            var records: [StoredRecord] = []
            var zones: [ZoneKey] = []
            var lastComponents: [QueryCursor.Value] = []
            let rows = try Row.fetchCursor(db, sql: statement.sql, arguments: statement.arguments)
            while let row = try rows.next() {
                if records.count == query.limit {
                    return QueryPage(records: records, zones: zones, next: QueryCursor(values: lastComponents))
                }
                records.append(try SQLiteStore.record(from: row))
                zones.append(keys[row[14 + statement.componentCount]] ?? query.zone)
                lastComponents = (0..<statement.componentCount).map { SQLiteStore.cursorComponent(row, at: 14 + $0) }
            }
            return QueryPage(records: records, zones: zones, next: nil)
        }
    }

    /// The names of the expression indexes on `records`, read from `sqlite_master` (kept in
    /// memory by SQLite; a reader's cached schema could miss an index the writer just made).
    static func expressionIndexes(in db: Database) throws -> [String: String] {
        let rows = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'records' AND name LIKE 'records_field_%'")
        )
        return Dictionary(rows.map { ($0[0], $0[1]) }, uniquingKeysWith: { first, _ in first })
    }

    private static func cursorComponent(_ row: Row, at index: Int) -> QueryCursor.Value {
        QuerySQL.cursorValue(of: row[index] as DatabaseValue)
    }
}
