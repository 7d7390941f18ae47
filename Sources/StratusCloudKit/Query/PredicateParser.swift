import StratusModel

/// What a predicate asks of a query: filters ANDed; `matchesNothing` for FALSEPREDICATE-like.
///
/// When `matchesNothing` is `true` no record can match, whatever `filters` say: the query
/// answers an empty page without asking the server.
struct ParsedPredicate: Sendable, Hashable {
    var filters: [QueryFilter]
    var matchesNothing: Bool

    init(filters: [QueryFilter] = [], matchesNothing: Bool = false) {
        self.filters = filters
        self.matchesNothing = matchesNothing
    }
}

/// A predicate CloudKit would refuse, or one that doesn't parse; CKQuery reports it as
/// `CKError.invalidArguments` with `message`.
struct PredicateError: Error, Sendable, Hashable, CustomStringConvertible {
    var message: String

    var description: String { message }
}

extension PredicateError {
    init(_ message: String) {
        self.init(message: message)
    }

    /// Why OR is refused, wherever it is met.
    static let orUnsupported = PredicateError(
        "CloudKit doesn't support OR (||): run one query per alternative, or use IN for alternatives of one key"
    )
}

/// Parses NSPredicate format strings in the subset CloudKit accepts into wire filters.
///
/// The grammar: `AND`/`&&`, `NOT`/`!`, parentheses, `TRUEPREDICATE`, `FALSEPREDICATE`, and
/// comparisons `[ANY|SOME] left op[options] right` where `op` is `=`, `==`, `!=`, `<>`, `<`, `<=`,
/// `=<`, `>`, `>=`, `=>`, `BETWEEN`, `IN`, `CONTAINS` or `BEGINSWITH`. Expressions are keys (`name`,
/// `#name`, `%K`, the metadata keys of ``SystemKeys``), `SELF`, quoted strings, numbers (decimal,
/// `0x`, `0o`, `0b`, a leading `-`), `YES`/`NO`/`TRUE`/`FALSE`, aggregates `{a, b}`, `%@`, `%d`-
/// and `%f`-style arguments, `CAST(seconds, "NSDate")`, `now()` and
/// `distanceToLocation:fromLocation:(key, location)`. What each comparison becomes is
/// ``PredicateLowering``'s business; everything else CloudKit refuses is refused here: OR, ALL,
/// NONE, LIKE, MATCHES, ENDSWITH, key paths, arithmetic, variables, `nil`, other functions.
enum PredicateParser {
    /// `arguments` are the format's varargs in order; `value` turns one argument (String, Int, Double,
    /// Bool, Date, Data, [Any], CKRecord.Reference, CKRecord.ID, CKRecord, CLLocation…) into a FieldValue
    /// (the caller supplies it; nil = unsupported type -> PredicateError).
    ///
    /// `%K` arguments are Strings; `%d`-style ones integers and `%f`-style ones numbers, converted
    /// here. Arguments beyond the format's specifiers are ignored, as Foundation ignores them.
    /// - Throws: ``PredicateError`` for a format that doesn't parse or that CloudKit would refuse.
    static func parse(format: String, arguments: [Any], value: (Any) -> FieldValue?) throws(PredicateError) -> ParsedPredicate {
        try PredicateLowering.lower(try node(format: format, arguments: arguments, value: value))
    }

    /// The format parsed, arguments substituted, not yet checked against CloudKit's rules.
    /// - Throws: ``PredicateError`` for a format that doesn't parse.
    static func node(format: String, arguments: [Any], value: (Any) -> FieldValue?) throws(PredicateError) -> PredicateNode {
        let tokens = try PredicateTokenizer.tokens(in: format)
        let substituted = try PredicateValues.substitute(tokens, arguments: arguments, value: value)
        var parser = PredicateFormatParser(tokens: substituted)
        return try parser.parse()
    }
}
