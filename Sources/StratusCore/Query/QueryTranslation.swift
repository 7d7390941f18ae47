import StratusModel
import StratusStore

/// Wire filters and sorts → storage predicates and sort keys, with CloudKit's system field names.
enum QueryTranslation {
    /// `systemFieldName` (and the `___` index names, accepted as `fieldName` too) → operand.
    /// `___recordID` is how Apple's schema files spell `___recordId`.
    static let systemFields: [String: RecordQuery.Operand] = [
        "recordName": .recordName, "___recordId": .recordName, "___recordID": .recordName,
        "createdTimestamp": .createdTimestamp, "___createTime": .createdTimestamp,
        "modifiedTimestamp": .modifiedTimestamp, "___modTime": .modifiedTimestamp,
        "createdUserRecordName": .createdBy, "___createdBy": .createdBy,
        "modifiedUserRecordName": .modifiedBy, "___modifiedBy": .modifiedBy,
    ]

    static func predicate(for filter: QueryFilter) throws(CoreError) -> RecordQuery.Predicate {
        var value = filter.fieldValue.value
        let isTokenSearch = filter.comparator == .containsAllTokens || filter.comparator == .containsAnyTokens
        // A token filter naming no field searches every string field (CKQuery's `self CONTAINS`).
        let operand =
            isTokenSearch && filter.fieldName == nil && filter.systemFieldName == nil
            ? .allStrings : try operand(field: filter.fieldName, system: filter.systemFieldName, value: value)
        // System fields hold names as text: a reference value compared with one means its name.
        if case .field = operand {} else if case .reference(let reference) = value {
            value = .string(reference.recordName)
        }
        switch filter.comparator {
        case .near:
            guard case .location = value, let distance = filter.distance, distance >= 0 else {
                throw CoreError.badRequest("NEAR needs a LOCATION fieldValue and a distance in metres")
            }
            guard case .field = operand else { throw CoreError.badRequest("NEAR applies to LOCATION fields") }
        case .beginsWith, .notBeginsWith, .containsAllTokens, .containsAnyTokens, .listMemberBeginsWith, .notListMemberBeginsWith:
            guard case .string = value else { throw CoreError.badRequest("\(filter.comparator.rawValue) needs a STRING fieldValue") }
        default:
            break
        }
        if takesListValue(filter.comparator) {
            guard case .list = value else {
                throw CoreError.badRequest("\(filter.comparator.rawValue) needs a list fieldValue (a *_LIST type), not a single value")
            }
        }
        if isListComparator(filter.comparator) {
            guard case .field = operand else { throw CoreError.badRequest("\(filter.comparator.rawValue) applies to list fields") }
        }
        return RecordQuery.Predicate(operand: operand, comparator: filter.comparator, value: value, distance: filter.distance)
    }

    static func sortKey(for sort: QuerySort) throws(CoreError) -> RecordQuery.SortKey {
        var near: Location?
        if let relative = sort.relativeLocation {
            guard case .location(let point) = relative.value else {
                throw CoreError.badRequest("relativeLocation needs a LOCATION value")
            }
            near = point
        }
        let operand = try operand(field: sort.fieldName, system: sort.systemFieldName, value: nil)
        return RecordQuery.SortKey(operand: operand, ascending: sort.ascending ?? true, near: near)
    }

    /// Comparators whose `fieldValue` is a list of candidates.
    private static func takesListValue(_ comparator: QueryComparator) -> Bool {
        switch comparator {
        case .in, .notIn, .listContainsAny, .notListContainsAny, .listContainsAll, .notListContainsAll: true
        default: false
        }
    }

    private static func isListComparator(_ comparator: QueryComparator) -> Bool {
        comparator.rawValue.contains("LIST_")
    }

    private static func operand(field: String?, system: String?, value: FieldValue?) throws(CoreError) -> RecordQuery.Operand {
        if let system {
            guard let operand = systemFields[system] else { throw CoreError.badRequest("unknown systemFieldName '\(system)'") }
            return operand
        }
        guard let field else { throw CoreError.badRequest("a filter or sort needs fieldName or systemFieldName") }
        if let operand = systemFields[field], field.hasPrefix("___") { return operand }
        guard NameRules.isValidIdentifier(field) else { throw CoreError.badRequest("invalid fieldName '\(field)'") }
        var isReference = false
        if case .reference? = value { isReference = true }
        if case .list(let items)? = value, case .reference? = items.first { isReference = true }
        return .field(field, reference: isReference)
    }
}
