import StratusModel
import StratusStore

/// A query subscription's query evaluated against one record in memory, deciding as
/// records/query decides: a record matches if and only if records/query with the same query
/// would answer it.
///
/// The filters are translated as records/query translates them (``QueryTranslation``: system
/// fields, references compared by name), then every comparator is evaluated as the query SQL
/// evaluates it (``SQLValue``): SQL's three-valued logic (a missing field is NULL, so only the
/// negative comparators hold for it), case-sensitive byte-wise text, numbers below text, column
/// affinities of the system fields, `IN` and the list comparators over the list's elements,
/// `BEGINS_WITH` on the text's leading characters, tokens lower-cased (ASCII, as SQLite's `lower`)
/// with the store's punctuation and words (``RecordQuery/searchWords(_:)``), and `NEAR` by the
/// store's distance (``RecordQuery/metres(fromLatitude:fromLongitude:toLatitude:toLongitude:)``).
struct RecordPredicate: Sendable {
    let recordType: String
    let predicates: [RecordQuery.Predicate]

    /// `nil` when records/query would refuse the query (it would never answer a record).
    init?(query: Query) {
        guard NameRules.isValidIdentifier(query.recordType) else { return nil }
        var predicates: [RecordQuery.Predicate] = []
        for filter in query.filterBy ?? [] {
            guard let predicate = try? QueryTranslation.predicate(for: filter) else { return nil }
            predicates.append(predicate)
        }
        self.recordType = query.recordType
        self.predicates = predicates
    }

    /// Whether records/query would answer the record as the change left it (a deletion: as it
    /// was before). Filters are ANDed: each must be true (not false, not NULL).
    func matches(_ change: RecordChange) -> Bool {
        guard change.type == recordType else { return false }
        return predicates.allSatisfy { holds($0, in: change) == true }
    }

    /// The filter's SQL truth value for the record: `nil` is NULL.
    private func holds(_ predicate: RecordQuery.Predicate, in change: RecordChange) -> Bool? {
        let (value, affinity) = Self.value(of: predicate.operand, in: change)
        let wanted = predicate.value
        switch predicate.comparator {
        case .equals: return SQLValue.equals(value, SQLValue.bound(wanted), affinity: affinity)
        case .notEquals:
            guard value != nil else { return true }
            return SQLValue.equals(value, SQLValue.bound(wanted), affinity: affinity).map { !$0 }
        case .lessThan: return SQLValue.order(value, SQLValue.bound(wanted), affinity: affinity).map { $0 < 0 }
        case .lessThanOrEquals: return SQLValue.order(value, SQLValue.bound(wanted), affinity: affinity).map { $0 <= 0 }
        case .greaterThan: return SQLValue.order(value, SQLValue.bound(wanted), affinity: affinity).map { $0 > 0 }
        case .greaterThanOrEquals: return SQLValue.order(value, SQLValue.bound(wanted), affinity: affinity).map { $0 >= 0 }
        case .in: return SQLValue.isIn(value, SQLValue.boundItems(wanted), affinity: affinity)
        case .notIn:
            guard value != nil else { return true }
            return SQLValue.isIn(value, SQLValue.boundItems(wanted), affinity: affinity).map { !$0 }
        case .beginsWith, .notBeginsWith:
            let begins = Self.begins(value, with: wanted)
            guard predicate.comparator == .notBeginsWith else { return begins }
            guard value != nil else { return true }
            return begins.map { !$0 }
        case .containsAllTokens, .containsAnyTokens:
            return Self.tokens(in: value, wanted, all: predicate.comparator == .containsAllTokens)
        case .near:
            return Self.near(predicate, in: change)
        case .listContains, .notListContains:
            let wantedValue = SQLValue.bound(wanted)
            let exists = elements(predicate.operand, in: change).contains { SQLValue.equals($0, wantedValue) == true }
            return predicate.comparator == .listContains ? exists : !exists
        case .listContainsAny, .notListContainsAny:
            let items = SQLValue.boundItems(wanted)
            let exists = elements(predicate.operand, in: change).contains { SQLValue.isIn($0, items) == true }
            return predicate.comparator == .listContainsAny ? exists : !exists
        case .listContainsAll, .notListContainsAll:
            let items = SQLValue.boundItems(wanted)
            // COUNT(DISTINCT element) of the elements IN the items, against the distinct items.
            let matched = Self.distinctCount(elements(predicate.operand, in: change).filter { SQLValue.isIn($0, items) == true })
            let all = matched == Self.distinctCount(items)
            return predicate.comparator == .listContainsAll ? all : !all
        case .listMemberBeginsWith, .notListMemberBeginsWith:
            let exists = elements(predicate.operand, in: change).contains { Self.begins($0, with: wanted) == true }
            return predicate.comparator == .listMemberBeginsWith ? exists : !exists
        }
    }

    // MARK: - Operands

    /// What the operand reads for the record, and the affinity of its column.
    private static func value(of operand: RecordQuery.Operand, in change: RecordChange) -> (SQLValue?, SQLValue.Affinity) {
        switch operand {
        case .recordName: return (SQLValue.text(change.name), .text)
        case .createdTimestamp: return (change.created.map { SQLValue.integer($0.timestamp) }, .integer)
        case .modifiedTimestamp: return (change.modified.map { SQLValue.integer($0.timestamp) }, .integer)
        case .createdBy: return (change.created?.userRecordName.map { SQLValue.text($0) }, .text)
        case .modifiedBy: return (change.modified?.userRecordName.map { SQLValue.text($0) }, .text)
        case .allStrings:
            let texts = change.fields.keys.sorted().compactMap { key -> String? in
                guard let field = change.fields[key], field.type == .string, case .string(let text) = field.value else { return nil }
                return text
            }
            return (texts.isEmpty ? nil : SQLValue.text(texts.joined(separator: " ")), .text)
        case .field(let name, let reference):
            guard let value = change.fields[name]?.value else { return (nil, .plain) }
            // A reference operand reads `.value.recordName`: only a reference has one.
            guard reference else { return (SQLValue.extracted(value), .plain) }
            if case .reference(let target) = value { return (SQLValue.text(target.recordName), .plain) }
            return (nil, .plain)
        }
    }

    /// The rows `json_each` gives for a list field: its elements (a reference operand: their
    /// referenced names), a scalar alone; an object, or a missing field, has none.
    private func elements(_ operand: RecordQuery.Operand, in change: RecordChange) -> [SQLValue?] {
        guard case .field(let name, let reference) = operand, let value = change.fields[name]?.value else { return [] }
        let items: [FieldValue]
        switch value {
        case .list(let list): items = list
        case .location, .reference, .asset: return []
        default: items = [value]
        }
        return items.map { item -> SQLValue? in
            guard reference else { return SQLValue.extracted(item) }
            if case .reference(let target) = item { return SQLValue.text(target.recordName) }
            return nil
        }
    }

    // MARK: - Comparators

    /// `substr(value, 1, length(prefix)) = prefix`.
    private static func begins(_ value: SQLValue?, with wanted: FieldValue) -> Bool? {
        guard let value, case .text(let prefix)? = SQLValue.bound(wanted) else { return nil }
        return value.hasPrefix(prefix)
    }

    /// Each search word between spaces in the value's text, lower-cased (ASCII) with the
    /// punctuation read as spaces; no words at all hold for every record (all) or none (any).
    private static func tokens(in value: SQLValue?, _ wanted: FieldValue, all: Bool) -> Bool? {
        guard case .string(let phrase) = wanted else { return all }
        let words = RecordQuery.searchWords(phrase)
        guard !words.isEmpty else { return all }
        guard let value else { return nil }
        var haystack: [UInt8] = [0x20]
        for byte in value.text.utf8 {
            if punctuation.contains(byte) {
                haystack.append(0x20)
            } else {
                haystack.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
        }
        haystack.append(0x20)
        let found = words.map { Self.contains(haystack, Array(" \($0) ".utf8)) }
        return all ? found.allSatisfy { $0 } : found.contains(true)
    }

    private static let punctuation: Set<UInt8> = Set(RecordQuery.tokenPunctuation.flatMap(\.utf8))

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// The field's location within the distance (metres) of the filter's point.
    private static func near(_ predicate: RecordQuery.Predicate, in change: RecordChange) -> Bool? {
        guard case .field(let name, _) = predicate.operand, case .location(let point) = predicate.value,
            let radius = predicate.distance
        else { return nil }
        guard case .location(let location)? = change.fields[name]?.value else { return nil }
        let metres = RecordQuery.metres(
            fromLatitude: location.latitude, fromLongitude: location.longitude, toLatitude: point.latitude, toLongitude: point.longitude
        )
        return metres <= radius
    }

    /// How many distinct values (NULL counting as one) the list holds, as SQL compares them.
    private static func distinctCount(_ values: [SQLValue?]) -> Int {
        var distinct: [SQLValue?] = []
        for value in values where !distinct.contains(where: { same($0, value) }) {
            distinct.append(value)
        }
        return distinct.count
    }

    private static func same(_ lhs: SQLValue?, _ rhs: SQLValue?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let a?, let b?): a.compare(b) == 0
        default: false
        }
    }
}
