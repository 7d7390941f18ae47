import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// The WHERE conditions of a query: one per filter, and the keyset that continues a page.
extension PostgresQuerySQL {
    mutating func condition(for predicate: RecordQuery.Predicate) throws -> String {
        let operand = predicate.operand
        let e = try Self.expression(for: operand).0
        switch predicate.comparator {
        case .equals: return "\(e) = \(bindValue(predicate.value, for: operand))"
        case .notEquals: return "(\(e) IS NULL OR \(e) <> \(bindValue(predicate.value, for: operand)))"
        case .lessThan: return "\(e) < \(bindValue(predicate.value, for: operand))"
        case .lessThanOrEquals: return "\(e) <= \(bindValue(predicate.value, for: operand))"
        case .greaterThan: return "\(e) > \(bindValue(predicate.value, for: operand))"
        case .greaterThanOrEquals: return "\(e) >= \(bindValue(predicate.value, for: operand))"
        case .in: return "\(e) IN (\(bindList(predicate.value, for: operand)))"
        case .notIn: return "(\(e) IS NULL OR \(e) NOT IN (\(bindList(predicate.value, for: operand))))"
        case .beginsWith, .notBeginsWith:
            let text = try Self.textExpression(for: operand)
            let prefix = Self.text(of: predicate.value).map { parameter($0) } ?? "CAST(NULL AS TEXT)"
            return predicate.comparator == .beginsWith
                ? "starts_with(\(text), \(prefix))" : "(\(text) IS NULL OR NOT starts_with(\(text), \(prefix)))"
        case .containsAllTokens, .containsAnyTokens:
            return tokens(in: try Self.textExpression(for: operand), predicate.value, all: predicate.comparator == .containsAllTokens)
        case .near:
            guard case .location(let point) = predicate.value, let radius = predicate.distance, radius.isFinite else {
                throw StoreError(.failure, "NEAR needs a location and a distance")
            }
            return "\(try Self.distance(of: operand, from: point)) <= \(parameter(radius))"
        default:
            return try listCondition(predicate)
        }
    }

    /// Word tokens, case-insensitive: the field's text is lower-cased, punctuation becomes spaces.
    private mutating func tokens(in text: String, _ value: FieldValue, all: Bool) -> String {
        guard case .string(let phrase) = value else { return all ? "TRUE" : "FALSE" }
        let words = RecordQuery.searchWords(phrase)
        guard !words.isEmpty else { return all ? "TRUE" : "FALSE" }
        let normalized = "(' ' || regexp_replace(lower(\(text)), '[,.!?;:()/\"-]', ' ', 'g') || ' ')"
        let terms = words.map { word in "strpos(\(normalized), \(parameter(" \(word) "))) > 0" }
        return "(" + terms.joined(separator: all ? " AND " : " OR ") + ")"
    }

    private mutating func listCondition(_ predicate: RecordQuery.Predicate) throws -> String {
        guard case .field(let name, let reference) = predicate.operand else {
            throw StoreError(.failure, "list comparator on a system field")
        }
        let list = try PostgresFieldSQL.expression(name, reference: false)
        // A value that is not a list (another type under the same name) has no elements.
        let each = "jsonb_array_elements(CASE jsonb_typeof(\(list)) WHEN 'array' THEN \(list) ELSE '[]'::jsonb END) AS j(value)"
        let element = reference ? "(j.value -> 'recordName')" : "j.value"
        let elementText = reference ? "(j.value ->> 'recordName')" : "(j.value #>> '{}')"
        switch predicate.comparator {
        case .listContains, .notListContains:
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE \(element) = \(bindJSON(predicate.value)))"
            return predicate.comparator == .listContains ? exists : "NOT \(exists)"
        case .listContainsAny, .notListContainsAny:
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE \(element) IN (\(bindList(predicate.value, for: predicate.operand))))"
            return predicate.comparator == .listContainsAny ? exists : "NOT \(exists)"
        case .listContainsAll, .notListContainsAll:
            let wanted: Int64
            if case .list(let items) = predicate.value { wanted = Int64(Set(items.compactMap(Self.json(of:))).count) } else { wanted = 1 }
            let matched = "(SELECT count(DISTINCT \(element)) FROM \(each) WHERE \(element) IN (\(bindList(predicate.value, for: predicate.operand))))"
            return "\(matched) \(predicate.comparator == .listContainsAll ? "=" : "<>") \(parameter(wanted))"
        case .listMemberBeginsWith, .notListMemberBeginsWith:
            let prefix = Self.text(of: predicate.value).map { parameter($0) } ?? "CAST(NULL AS TEXT)"
            let exists = "EXISTS (SELECT 1 FROM \(each) WHERE starts_with(\(elementText), \(prefix)))"
            return predicate.comparator == .listMemberBeginsWith ? exists : "NOT \(exists)"
        default:
            throw StoreError(.failure, "unhandled comparator \(predicate.comparator.rawValue)")
        }
    }

    // MARK: - Keyset

    /// Rows strictly after `values` in the order of `components`.
    mutating func keyset(_ components: [(expression: String, ascending: Bool, kind: Kind)], _ values: [QueryCursor.Value]) throws -> String {
        var alternatives: [String] = []
        for index in components.indices {
            // Nothing sorts strictly after a missing value within its group.
            if case .null = values[index] { continue }
            var terms: [String] = []
            for earlier in 0..<index {
                terms.append("\(components[earlier].expression) IS NOT DISTINCT FROM \(bindCursor(values[earlier], as: components[earlier].kind))")
            }
            let comparison = components[index].ascending ? ">" : "<"
            terms.append("\(components[index].expression) \(comparison) \(bindCursor(values[index], as: components[index].kind))")
            alternatives.append("(" + terms.joined(separator: " AND ") + ")")
        }
        return alternatives.isEmpty ? "FALSE" : "(" + alternatives.joined(separator: " OR ") + ")"
    }

    /// A continuation value bound as its component reads.
    mutating func bindCursor(_ value: QueryCursor.Value, as kind: Kind) -> String {
        switch (kind, value) {
        case (_, .null): return "NULL"
        case (.json, .integer(let number)): return "CAST(\(parameter(String(number))) AS jsonb)"
        case (.json, .real(let number)): return "CAST(\(parameter(Self.json(of: .double(number)) ?? "null")) AS jsonb)"
        case (.json, .text(let text)): return "CAST(\(parameter(Self.json(of: .string(text)) ?? "null")) AS jsonb)"
        case (.flag, .integer(let number)): return parameter(number != 0)
        case (.flag, _): return parameter(true)
        case (.integer, .integer(let number)): return parameter(number)
        case (.integer, .real(let number)), (.real, .real(let number)): return "CAST(\(parameter(number)) AS float8)"
        case (.real, .integer(let number)): return "CAST(\(parameter(Double(number))) AS float8)"
        case (.integer, .text(let text)), (.real, .text(let text)), (.text, .text(let text)): return parameter(text)
        case (.text, .integer(let number)): return parameter(String(number))
        case (.text, .real(let number)): return parameter(String(number))
        }
    }

    /// A continuation value from a component selected as `to_jsonb(…)::text`.
    static func cursorValue(ofJSON text: String?) -> QueryCursor.Value {
        guard let text, text != "null" else { return .null }
        switch text {
        case "true": return .integer(1)
        case "false": return .integer(0)
        default:
            if text.hasPrefix("\"") {
                return (try? JSONDecoder().decode(String.self, from: Data(text.utf8))).map(QueryCursor.Value.text) ?? .null
            }
            if let exact = Int64(text) { return .integer(exact) }
            return Double(text).map(QueryCursor.Value.real) ?? .null
        }
    }
}
