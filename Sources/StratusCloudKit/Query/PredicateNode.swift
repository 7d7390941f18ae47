import StratusModel

/// A predicate as CloudKit reads it, before it becomes wire filters.
///
/// The format parser (Linux) and the walk over Foundation's own predicate tree (Apple platforms)
/// both produce this; ``PredicateLowering`` turns it into `filterBy`. OR has no case: CloudKit
/// has no OR, and both producers refuse it where they meet it.
indirect enum PredicateNode: Sendable, Hashable {
    /// `TRUEPREDICATE` (`true`) or `FALSEPREDICATE` (`false`).
    case constant(Bool)
    /// One comparison, such as `name BEGINSWITH 'Lis'`.
    case comparison(PredicateComparison)
    /// `AND` / `&&` of the parts (an empty AND holds for every record).
    case and([PredicateNode])
    /// `NOT` / `!` of one predicate.
    case not(PredicateNode)
    /// Wire filters already lowered: the predicate of a query restored from an archive or of a
    /// subscription the server sent back.
    case filters([QueryFilter])
}

/// One comparison: `[modifier] left operator[options] right`.
struct PredicateComparison: Sendable, Hashable, CustomStringConvertible {
    /// The aggregate modifier written before the left expression.
    enum Modifier: String, Sendable, Hashable {
        case direct = ""
        case any = "ANY"
        case all = "ALL"
        case none = "NONE"
    }

    var modifier: Modifier
    var left: PredicateOperand
    var `operator`: PredicateOperator
    /// The letters of `[cd]`-style options after the operator; empty when there are none.
    var options: String
    var right: PredicateOperand

    init(modifier: Modifier = .direct, _ left: PredicateOperand, _ op: PredicateOperator, options: String = "", _ right: PredicateOperand) {
        self.modifier = modifier
        self.left = left
        self.operator = op
        self.options = options
        self.right = right
    }

    /// The comparison written back in format syntax, for error messages.
    var description: String {
        let prefix = modifier == .direct ? "" : modifier.rawValue + " "
        let suffix = options.isEmpty ? "" : "[\(options)]"
        return "\(prefix)\(left) \(self.operator.rawValue)\(suffix) \(right)"
    }
}

/// One side of a comparison.
indirect enum PredicateOperand: Sendable, Hashable, CustomStringConvertible {
    /// A record key (`name`, `%K`, `#name`, or a metadata key such as `creationDate`).
    case key(String)
    /// `SELF`: the record itself, which CloudKit allows only in a tokenized search.
    case evaluatedObject
    /// A constant: a literal, a `%` argument, an aggregate `{…}` (a list), `now()` or a `CAST`.
    case value(FieldValue)
    /// `distanceToLocation:fromLocation:(a, b)`.
    case distance(PredicateOperand, PredicateOperand)

    var description: String {
        switch self {
        case .key(let key): key
        case .evaluatedObject: "SELF"
        case .value(let value): Self.describe(value)
        case .distance(let from, let to): "distanceToLocation:fromLocation:(\(from), \(to))"
        }
    }

    private static func describe(_ value: FieldValue) -> String {
        switch value {
        case .string(let text): "'\(text)'"
        case .int64(let number): String(number)
        case .double(let number): String(number)
        case .timestamp(let milliseconds): "<date \(milliseconds) ms>"
        case .bytes(let data): "<\(data.count) bytes>"
        case .location(let location): "<location \(location.latitude), \(location.longitude)>"
        case .reference(let reference): "<reference \(reference.recordName)>"
        case .asset: "<asset>"
        case .list(let items): "{" + items.map(describe).joined(separator: ", ") + "}"
        }
    }
}

/// The comparison operators CloudKit accepts (any other is refused where it is read).
enum PredicateOperator: String, Sendable, Hashable {
    case equalTo = "=="
    case notEqualTo = "!="
    case lessThan = "<"
    case lessThanOrEqualTo = "<="
    case greaterThan = ">"
    case greaterThanOrEqualTo = ">="
    case between = "BETWEEN"
    case `in` = "IN"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"

    /// Whether this is one of the six basic comparisons.
    var isBasic: Bool {
        switch self {
        case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: true
        case .between, .in, .contains, .beginsWith: false
        }
    }

    /// The operator with its sides swapped (`5 < x` is `x > 5`); itself for the symmetric ones.
    var mirrored: PredicateOperator {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqualTo: .greaterThanOrEqualTo
        case .greaterThan: .lessThan
        case .greaterThanOrEqualTo: .lessThanOrEqualTo
        default: self
        }
    }

    /// The wire comparator of a basic comparison, negated under `NOT` (`NOT (x < 5)` is `x >= 5`).
    func basicComparator(negated: Bool) -> QueryComparator? {
        switch (self, negated) {
        case (.equalTo, false), (.notEqualTo, true): .equals
        case (.notEqualTo, false), (.equalTo, true): .notEquals
        case (.lessThan, false), (.greaterThanOrEqualTo, true): .lessThan
        case (.lessThanOrEqualTo, false), (.greaterThan, true): .lessThanOrEquals
        case (.greaterThan, false), (.lessThanOrEqualTo, true): .greaterThan
        case (.greaterThanOrEqualTo, false), (.lessThan, true): .greaterThanOrEquals
        default: nil
        }
    }
}
