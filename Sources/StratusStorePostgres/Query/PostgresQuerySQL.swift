import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Turns a ``RecordQuery`` into one parameterised PostgreSQL statement, as the SQLite store's
/// `QuerySQL` does: filters in the WHERE clause, sort keys (missing values last, then the record
/// name) in ORDER BY, the continuation as a keyset condition. User fields are compared as
/// `jsonb` (numbers numerically, strings as strings) through ``PostgresFieldSQL``'s expressions,
/// the ones schema indexes are built over; every value is a bound parameter.
struct PostgresQuerySQL {
    /// How a sort component's value is typed, so a continuation binds it back the same way.
    enum Kind { case json, integer, text, flag, real }

    private(set) var sql = ""
    private(set) var binds = PostgresBindings()
    private var count = 0
    /// How many sort components follow the record columns in each row (each selected as `jsonb` text).
    private(set) var componentCount = 0

    /// PostgreSQL takes at most this many parameters in one statement.
    static let maximumParameters = 65_535

    var query: PostgresQuery { PostgresQuery(unsafeSQL: sql, binds: binds) }

    init(_ query: RecordQuery, zoneIDs: [Int64]) throws {
        var conditions = ["zone_id = ANY(\(parameter(zoneIDs)))", "record_type = \(parameter(query.recordType))", "NOT deleted"]
        for predicate in query.predicates {
            conditions.append(try condition(for: predicate))
        }
        if let names = query.names {
            conditions.append("record_name = ANY(\(parameter(names.sorted())))")
        }
        var components: [(expression: String, ascending: Bool, kind: Kind)] = []
        // A filter that rejects missing values makes the "missing last" component constant:
        // leaving it out lets an index on the field deliver rows already in order.
        let nullRejecting: Set<QueryComparator> = [.equals, .lessThan, .lessThanOrEquals, .greaterThan, .greaterThanOrEquals, .in, .beginsWith]
        let present = Set(query.predicates.filter { nullRejecting.contains($0.comparator) }.map(\.operand))
        for key in query.sortKeys {
            let (expression, kind) = try key.near.map { (try Self.distance(of: key.operand, from: $0), Kind.real) } ?? Self.expression(for: key.operand)
            if key.near != nil || !present.contains(key.operand) {
                components.append(("(\(expression) IS NULL)", true, .flag))
            }
            components.append((expression, key.ascending, kind))
        }
        if zoneIDs.count > 1 { components.append(("zone_id", true, .integer)) }
        components.append(("record_name", true, .text))
        componentCount = components.count
        if let cursor = query.after {
            guard cursor.values.count == components.count else {
                throw StoreError(.invalid, "continuationMarker does not belong to this query")
            }
            conditions.append(try keyset(components, cursor.values))
        }
        let selected = components.map { "to_jsonb(\($0.expression))::text" }.joined(separator: ", ")
        let order = components.map { "\($0.expression) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
        let limit = parameter(Int64(query.limit + 1))
        sql = """
            SELECT \(PostgresStore.recordColumns), \(selected), zone_id FROM records
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY \(order) LIMIT \(limit)
            """
        guard count <= Self.maximumParameters else {
            throw StoreError(.invalid, "the query is too large: use fewer filters, sort keys or list values")
        }
    }

    // MARK: - Binding

    mutating func parameter<Value: PostgresNonThrowingEncodable & Sendable>(_ value: Value) -> String {
        binds.append(value)
        count += 1
        return "$\(count)"
    }

    mutating func bindNull() -> String {
        binds.appendNull()
        count += 1
        return "$\(count)"
    }

    /// A field value bound as `jsonb` (what a user field's expression is); NULL where SQLite's
    /// store compares nothing (locations, assets, lists).
    mutating func bindJSON(_ value: FieldValue) -> String {
        guard let json = Self.json(of: value) else { return "CAST(\(bindNull()) AS jsonb)" }
        return "CAST(\(parameter(json)) AS jsonb)"
    }

    /// A value bound as `operand` reads: `jsonb` for user fields, the column's type otherwise.
    mutating func bindValue(_ value: FieldValue, for operand: RecordQuery.Operand) -> String {
        switch operand {
        case .field: return bindJSON(value)
        case .createdTimestamp, .modifiedTimestamp:
            switch value {
            case .int64(let number), .timestamp(let number): return parameter(number)
            case .double(let number): return "CAST(\(parameter(number)) AS float8)"
            default: return "CAST(\(bindNull()) AS BIGINT)"
            }
        case .recordName, .createdBy, .modifiedBy, .allStrings:
            return Self.text(of: value).map { parameter($0) } ?? "CAST(\(bindNull()) AS TEXT)"
        }
    }

    /// The items of a list value (or the value alone), bound as `operand` reads.
    mutating func bindList(_ value: FieldValue, for operand: RecordQuery.Operand) -> String {
        let items: [FieldValue]
        if case .list(let list) = value { items = list } else { items = [value] }
        guard !items.isEmpty else { return "NULL" }
        return items.map { bindValue($0, for: operand) }.joined(separator: ", ")
    }

    static func json(of value: FieldValue) -> String? {
        let encoder = JSONEncoder()
        func encoded<T: Encodable>(_ value: T) -> String? { (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } }
        switch value {
        case .string(let text): return encoded(text)
        case .int64(let number), .timestamp(let number): return String(number)
        case .double(let number): return number.isFinite ? encoded(number) : nil
        case .bytes(let data): return encoded(data.base64EncodedString())
        case .reference(let reference): return encoded(reference.recordName)
        case .location, .asset, .list: return nil
        }
    }

    static func text(of value: FieldValue) -> String? {
        switch value {
        case .string(let text): text
        case .reference(let reference): reference.recordName
        case .bytes(let data): data.base64EncodedString()
        case .int64(let number), .timestamp(let number): String(number)
        case .double(let number): String(number)
        case .location, .asset, .list: nil
        }
    }

    // MARK: - Operands

    static func expression(for operand: RecordQuery.Operand) throws -> (String, Kind) {
        switch operand {
        case .field(let name, let reference): (try PostgresFieldSQL.expression(name, reference: reference), .json)
        case .recordName: ("record_name", .text)
        case .createdTimestamp: ("created_at", .integer)
        case .modifiedTimestamp: ("modified_at", .integer)
        case .createdBy: ("created_by", .text)
        case .modifiedBy: ("modified_by", .text)
        case .allStrings: ("(SELECT string_agg(f.value ->> 'value', ' ') FROM jsonb_each(fields) AS f WHERE f.value ->> 'type' = 'STRING')", .text)
        }
    }

    /// The operand as text (prefixes, tokens).
    static func textExpression(for operand: RecordQuery.Operand) throws -> String {
        switch operand {
        case .field(let name, let reference): try PostgresFieldSQL.text(name, reference: reference)
        case .createdTimestamp: "created_at::text"
        case .modifiedTimestamp: "modified_at::text"
        default: try expression(for: operand).0
        }
    }

    /// Metres from `point` to a LOCATION field (haversine). The point's coordinates are written
    /// as numeric literals (checked finite): the expression is repeated in the select list,
    /// ORDER BY and the keyset, where one bound parameter per use would be wasteful.
    static func distance(of operand: RecordQuery.Operand, from point: Location) throws -> String {
        guard case .field(let name, _) = operand else { throw StoreError(.failure, "distance of a system field") }
        guard point.latitude.isFinite, point.longitude.isFinite else { throw StoreError(.failure, "location not finite") }
        let field = try PostgresFieldSQL.literal(name)
        let latitude = "((fields -> \(field) -> 'value' ->> 'latitude')::float8)"
        let longitude = "((fields -> \(field) -> 'value' ->> 'longitude')::float8)"
        let dLat = "radians(\(point.latitude) - \(latitude))"
        let dLon = "radians(\(point.longitude) - \(longitude))"
        let a = "(sin(\(dLat) / 2) ^ 2 + cos(radians(\(latitude))) * cos(radians(\(point.latitude))) * sin(\(dLon) / 2) ^ 2)"
        return "(6371000 * 2 * atan2(sqrt(\(a)), sqrt(1 - \(a))))"
    }
}
