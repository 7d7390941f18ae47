import StratusModel
import StratusStore

/// A query subscription's filters evaluated against one record in memory, as records/query would
/// select it: every filter must hold (they are ANDed).
///
/// Comparators over scalars, lists and prefixes are evaluated; NEAR and the token comparators,
/// which need the query engine, count as matching (a notification is a hint to fetch).
struct RecordPredicate: Sendable {
    let query: Query

    func matches(type: String, fields: [String: Field]) -> Bool {
        guard type == query.recordType else { return false }
        return (query.filterBy ?? []).allSatisfy { filter in holds(filter, in: fields) }
    }

    private func holds(_ filter: QueryFilter, in fields: [String: Field]) -> Bool {
        guard let name = filter.fieldName else { return true }
        let wanted = filter.fieldValue.value
        guard let value = fields[name]?.value else {
            // A missing field equals nothing: only the negative comparators hold.
            return [.notEquals, .notIn, .notBeginsWith, .notListContains, .notListContainsAny, .notListContainsAll]
                .contains(filter.comparator)
        }
        switch filter.comparator {
        case .equals: return compare(value, wanted) == 0
        case .notEquals: return compare(value, wanted) != 0
        case .lessThan: return compare(value, wanted).map { $0 < 0 } ?? false
        case .lessThanOrEquals: return compare(value, wanted).map { $0 <= 0 } ?? false
        case .greaterThan: return compare(value, wanted).map { $0 > 0 } ?? false
        case .greaterThanOrEquals: return compare(value, wanted).map { $0 >= 0 } ?? false
        case .in: return members(of: wanted).contains { compare(value, $0) == 0 }
        case .notIn: return !members(of: wanted).contains { compare(value, $0) == 0 }
        case .beginsWith: return prefix(value, wanted)
        case .notBeginsWith: return !prefix(value, wanted)
        case .listContains: return members(of: value).contains { compare($0, wanted) == 0 }
        case .notListContains: return !members(of: value).contains { compare($0, wanted) == 0 }
        case .listContainsAny: return members(of: wanted).contains { item in members(of: value).contains { compare($0, item) == 0 } }
        case .notListContainsAny: return !members(of: wanted).contains { item in members(of: value).contains { compare($0, item) == 0 } }
        case .listContainsAll: return members(of: wanted).allSatisfy { item in members(of: value).contains { compare($0, item) == 0 } }
        case .notListContainsAll: return !members(of: wanted).allSatisfy { item in members(of: value).contains { compare($0, item) == 0 } }
        case .listMemberBeginsWith: return members(of: value).contains { prefix($0, wanted) }
        case .notListMemberBeginsWith: return !members(of: value).contains { prefix($0, wanted) }
        case .near, .containsAllTokens, .containsAnyTokens: return true
        }
    }

    private func members(of value: FieldValue) -> [FieldValue] {
        if case .list(let items) = value { return items }
        return [value]
    }

    private func prefix(_ value: FieldValue, _ wanted: FieldValue) -> Bool {
        guard case .string(let text) = value, case .string(let start) = wanted else { return false }
        return text.hasPrefix(start)
    }

    /// -1, 0 or 1, or `nil` when the values are not comparable.
    private func compare(_ lhs: FieldValue, _ rhs: FieldValue) -> Int? {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.reference(let a), .reference(let b)): return a.recordName == b.recordName ? 0 : (a.recordName < b.recordName ? -1 : 1)
        case (.reference(let a), .string(let b)): return a.recordName == b ? 0 : (a.recordName < b ? -1 : 1)
        default:
            guard let a = number(lhs), let b = number(rhs) else { return lhs == rhs ? 0 : nil }
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    private func number(_ value: FieldValue) -> Double? {
        switch value {
        case .int64(let number), .timestamp(let number): Double(number)
        case .double(let number): number
        default: nil
        }
    }
}
