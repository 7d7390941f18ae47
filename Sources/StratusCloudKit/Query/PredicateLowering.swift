import StratusModel

/// Turns a ``PredicateNode`` into the ANDed wire filters of records/query, refusing what CloudKit
/// refuses.
///
/// | Predicate | Filter |
/// |---|---|
/// | `k = v`, `!=`/`<>`, `<`, `<=`/`=<`, `>`, `>=`/`=>` (either side) | `EQUALS`, `NOT_EQUALS`, `LESS_THAN`, … |
/// | `k BETWEEN {lo, hi}` | `GREATER_THAN_OR_EQUALS lo` and `LESS_THAN_OR_EQUALS hi` |
/// | `k IN {…}`, `{…} CONTAINS k`, `ANY {…} = k` | `IN` (`NOT_IN` under NOT) |
/// | `k CONTAINS v`, `v IN k`, `ANY k = v` | `LIST_CONTAINS` (`NOT_LIST_CONTAINS`) |
/// | `ANY k IN {…}` | `LIST_CONTAINS_ANY` (`NOT_LIST_CONTAINS_ANY`) |
/// | `k BEGINSWITH 's'` | `BEGINS_WITH` (`NOT_BEGINS_WITH`) |
/// | `ANY k BEGINSWITH 's'` | `LIST_MEMBER_BEGINS_WITH` (`NOT_LIST_MEMBER_BEGINS_WITH`) |
/// | `distanceToLocation:fromLocation:(k, loc) < km` | `NEAR`, `distance` = km × 1000 metres |
/// | `self CONTAINS 'words'` | `CONTAINS_ANY_TOKENS` with no field name: any searchable field |
///
/// NOT negates one comparison (`NOT (x < 5)` is `x >= 5`); like CloudKit it can't negate an AND,
/// BETWEEN, a tokenized search or `distanceToLocation:fromLocation:`. CloudKit's refusals of ALL,
/// NONE and comparison options (`[cd]`, allowed only in tokenized search) are applied here.
enum PredicateLowering {
    /// The filters `node` asks for.
    /// - Throws: ``PredicateError`` for anything CloudKit refuses.
    static func lower(_ node: PredicateNode) throws(PredicateError) -> ParsedPredicate {
        var result = ParsedPredicate()
        try lower(node, negated: false, into: &result)
        return result
    }

    private static func lower(_ node: PredicateNode, negated: Bool, into result: inout ParsedPredicate) throws(PredicateError) {
        switch node {
        case .constant(let value):
            if value == negated { result.matchesNothing = true }
        case .and(let parts):
            guard !negated else { throw PredicateError("CloudKit can't negate an AND predicate") }
            for part in parts { try lower(part, negated: false, into: &result) }
        case .not(let inner):
            try lower(inner, negated: !negated, into: &result)
        case .comparison(let comparison):
            result.filters += try filters(for: comparison, negated: negated)
        case .filters(let filters):
            guard !negated || filters.isEmpty else { throw PredicateError("CloudKit can't negate a restored query's filters") }
            result.filters += filters
        }
    }

    private static func filters(for comparison: PredicateComparison, negated: Bool) throws(PredicateError) -> [QueryFilter] {
        switch comparison.modifier {
        case .all: throw PredicateError("CloudKit doesn't support the ALL aggregate operator: \(comparison)")
        case .none: throw PredicateError("CloudKit doesn't support the NONE aggregate operator: \(comparison)")
        case .direct, .any: break
        }
        if case .distance = comparison.left {
            return [try nearFilter(comparison, negated: negated)]
        }
        if case .distance = comparison.right {
            return [try nearFilter(comparison, negated: negated)]
        }
        if comparison.left == .evaluatedObject || comparison.right == .evaluatedObject {
            return [try tokenFilter(comparison, negated: negated)]
        }
        guard comparison.options.isEmpty else {
            throw PredicateError("CloudKit doesn't support comparison options [\(comparison.options)] outside a tokenized search: \(comparison)")
        }
        if comparison.operator == .between {
            return try betweenFilters(comparison, negated: negated)
        }
        return [try filter(for: comparison, negated: negated)]
    }

    private static func filter(for comparison: PredicateComparison, negated: Bool) throws(PredicateError) -> QueryFilter {
        let unsupported = PredicateError("CloudKit doesn't support the comparison \(comparison)")
        switch (comparison.modifier, comparison.left, comparison.operator, comparison.right) {
        case (.direct, .key(let key), let op, .value(let value)) where op.isBasic:
            guard let comparator = op.basicComparator(negated: negated) else { throw unsupported }
            return try make(comparator, key, try scalar(value, comparison))
        case (.direct, .value(let value), let op, .key(let key)) where op.isBasic:
            guard let comparator = op.mirrored.basicComparator(negated: negated) else { throw unsupported }
            return try make(comparator, key, try scalar(value, comparison))
        case (.direct, .key(let key), .in, .value(let value)),
            (.direct, .value(let value), .contains, .key(let key)),
            (.any, .value(let value), .equalTo, .key(let key)):
            return try make(negated ? .notIn : .in, key, try list(value, comparison))
        case (.direct, .value(let value), .in, .key(let key)),
            (.direct, .key(let key), .contains, .value(let value)),
            (.any, .key(let key), .equalTo, .value(let value)):
            return try make(negated ? .notListContains : .listContains, key, try scalar(value, comparison))
        case (.any, .key(let key), .in, .value(let value)):
            return try make(negated ? .notListContainsAny : .listContainsAny, key, try list(value, comparison))
        case (.direct, .key(let key), .beginsWith, .value(let value)):
            return try make(negated ? .notBeginsWith : .beginsWith, key, try string(value, comparison))
        case (.any, .key(let key), .beginsWith, .value(let value)):
            return try make(negated ? .notListMemberBeginsWith : .listMemberBeginsWith, key, try string(value, comparison))
        default:
            throw unsupported
        }
    }

    /// `k BETWEEN {lower, upper}`: both bounds included.
    private static func betweenFilters(_ comparison: PredicateComparison, negated: Bool) throws(PredicateError) -> [QueryFilter] {
        guard !negated else { throw PredicateError("CloudKit can't negate BETWEEN: \(comparison)") }
        guard comparison.modifier == .direct, case .key(let key) = comparison.left,
            case .value(.list(let bounds)) = comparison.right, bounds.count == 2
        else {
            throw PredicateError("BETWEEN needs a key on the left and {lower, upper} on the right: \(comparison)")
        }
        return [
            try make(.greaterThanOrEquals, key, try scalar(bounds[0], comparison)),
            try make(.lessThanOrEquals, key, try scalar(bounds[1], comparison)),
        ]
    }

    /// `distanceToLocation:fromLocation:(key, location) < kilometres`, sides in either order.
    private static func nearFilter(_ comparison: PredicateComparison, negated: Bool) throws(PredicateError) -> QueryFilter {
        guard !negated else { throw PredicateError("CloudKit can't negate distanceToLocation:fromLocation:") }
        var function = comparison.left
        var radius = comparison.right
        var op = comparison.operator
        if case .distance = comparison.right {
            swap(&function, &radius)
            op = op.mirrored
        }
        guard comparison.modifier == .direct, comparison.options.isEmpty, case .distance(let from, let to) = function else {
            throw PredicateError("distanceToLocation:fromLocation: must be compared directly with a radius: \(comparison)")
        }
        guard op == .lessThan || op == .lessThanOrEqualTo else {
            throw PredicateError("CloudKit finds locations only inside a circle: compare distanceToLocation:fromLocation: with < radius")
        }
        let key: String
        let location: Location
        switch (from, to) {
        case (.key(let name), .value(.location(let point))), (.value(.location(let point)), .key(let name)):
            key = name
            location = point
        default:
            throw PredicateError("distanceToLocation:fromLocation: needs a LOCATION key and a location value: \(comparison)")
        }
        let kilometres: Double
        switch radius {
        case .value(.int64(let number)): kilometres = Double(number)
        case .value(.double(let number)): kilometres = number
        default: throw PredicateError("distanceToLocation:fromLocation: needs a radius in kilometres: \(comparison)")
        }
        guard kilometres.isFinite, kilometres >= 0 else {
            throw PredicateError("the radius of distanceToLocation:fromLocation: must be a non-negative number of kilometres")
        }
        guard case .field(let name) = try SystemKeys.target(for: key) else {
            throw PredicateError("'\(key)' is a metadata key, not a LOCATION field")
        }
        return QueryFilter(.near, field: name, Field(.location(location)), distance: kilometres * 1000)
    }

    /// `self CONTAINS 'words'`: a full-text search of every searchable field, matching records
    /// that hold any of the words (Apple: `'bob smith'` finds *bob* or *smith*; AND two searches to
    /// require both). The filter has neither `fieldName` nor `systemFieldName`.
    private static func tokenFilter(_ comparison: PredicateComparison, negated: Bool) throws(PredicateError) -> QueryFilter {
        guard !negated else { throw PredicateError("CloudKit can't negate a tokenized search (self CONTAINS …)") }
        guard comparison.modifier == .direct, comparison.left == .evaluatedObject, comparison.operator == .contains,
            case .value(.string(let words)) = comparison.right
        else {
            throw PredicateError("SELF is only for tokenized search, written self CONTAINS 'words': \(comparison)")
        }
        guard comparison.options.allSatisfy({ "cdl".contains($0) }) else {
            throw PredicateError("unsupported options [\(comparison.options)] in a tokenized search")
        }
        var filter = QueryFilter(.containsAnyTokens, field: "", .string(words))
        filter.fieldName = nil
        return filter
    }

    // MARK: - Filters and values

    private static func make(_ comparator: QueryComparator, _ key: String, _ value: Field) throws(PredicateError) -> QueryFilter {
        switch try SystemKeys.target(for: key) {
        case .field(let name):
            return QueryFilter(comparator, field: name, value)
        case .system(let name):
            guard !comparator.rawValue.contains("LIST_") else {
                throw PredicateError("'\(key)' is a metadata key, not a list: \(comparator.rawValue) doesn't apply")
            }
            return QueryFilter(comparator, systemField: name, value)
        }
    }

    private static func scalar(_ value: FieldValue, _ comparison: PredicateComparison) throws(PredicateError) -> Field {
        if case .list = value {
            throw PredicateError("\(comparison) compares with a list: use IN to match any of several values")
        }
        return Field(value)
    }

    private static func list(_ value: FieldValue, _ comparison: PredicateComparison) throws(PredicateError) -> Field {
        guard case .list(let items) = value else {
            throw PredicateError("\(comparison) needs a list of values ({…} or an array argument)")
        }
        guard let field = PredicateValues.listField(items) else {
            throw PredicateError("the values of a list must share one type: \(comparison)")
        }
        return field
    }

    private static func string(_ value: FieldValue, _ comparison: PredicateComparison) throws(PredicateError) -> Field {
        guard case .string = value else { throw PredicateError("BEGINSWITH needs a string: \(comparison)") }
        return Field(value)
    }
}
