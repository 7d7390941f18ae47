import StratusModel

/// The recursive descent over a format's tokens, arguments already substituted.
struct PredicateFormatParser {
    private let tokens: [PredicateToken]
    private var position = 0

    /// Words NSPredicate reserves: as keys they must be written `#word`.
    private static let reservedWords: Set<String> = [
        "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
        "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "FALSE", "YES", "NO",
        "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
        "FUNCTION", "TOKENMATCHES",
    ]

    init(tokens: [PredicateToken]) {
        self.tokens = tokens
    }

    /// The whole format as one predicate.
    mutating func parse() throws(PredicateError) -> PredicateNode {
        let node = try parseOr()
        guard position == tokens.count else { throw unexpected() }
        return node
    }

    private mutating func parseOr() throws(PredicateError) -> PredicateNode {
        let node = try parseAnd()
        if isWord("OR") || isSymbol("||") { throw PredicateError.orUnsupported }
        return node
    }

    private mutating func parseAnd() throws(PredicateError) -> PredicateNode {
        var parts = [try parseUnary()]
        while acceptWord("AND") || acceptSymbol("&&") { parts.append(try parseUnary()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func parseUnary() throws(PredicateError) -> PredicateNode {
        if acceptWord("NOT") || acceptSymbol("!") { return .not(try parseUnary()) }
        if acceptSymbol("(") {
            let inner = try parseOr()
            try expectSymbol(")")
            return inner
        }
        if acceptWord("TRUEPREDICATE") { return .constant(true) }
        if acceptWord("FALSEPREDICATE") { return .constant(false) }
        return .comparison(try parseComparison())
    }

    private mutating func parseComparison() throws(PredicateError) -> PredicateComparison {
        var modifier = PredicateComparison.Modifier.direct
        if acceptWord("ANY") || acceptWord("SOME") {
            modifier = .any
        } else if acceptWord("ALL") {
            modifier = .all
        } else if acceptWord("NONE") {
            modifier = .none
        }
        let left = try parseExpression()
        let op = try parseOperator()
        var options = ""
        if case .options(let letters)? = current?.kind {
            position += 1
            options = letters
        }
        let right = try parseExpression()
        return PredicateComparison(modifier: modifier, left, op, options: options, right)
    }

    private mutating func parseOperator() throws(PredicateError) -> PredicateOperator {
        guard let token = current else { throw PredicateError("the predicate ends where an operator was expected") }
        switch token.kind {
        case .symbol(let symbol):
            let op: PredicateOperator? =
                switch symbol {
                case "=", "==": .equalTo
                case "!=", "<>": .notEqualTo
                case "<": .lessThan
                case "<=", "=<": .lessThanOrEqualTo
                case ">": .greaterThan
                case ">=", "=>": .greaterThanOrEqualTo
                default: nil
                }
            guard let op else { throw PredicateError("unknown operator '\(symbol)' at offset \(token.offset)") }
            position += 1
            return op
        case .identifier(let word):
            let op: PredicateOperator? =
                switch word.uppercased() {
                case "BETWEEN": .between
                case "IN": .in
                case "CONTAINS": .contains
                case "BEGINSWITH": .beginsWith
                case "LIKE", "MATCHES", "ENDSWITH", "TOKENMATCHES", "UTI":
                    throw PredicateError("CloudKit doesn't support the \(word.uppercased()) operator (offset \(token.offset))")
                default: nil
                }
            guard let op else { throw PredicateError("unknown operator '\(word)' at offset \(token.offset)") }
            position += 1
            return op
        default:
            throw PredicateError("expected an operator at offset \(token.offset)")
        }
    }

    private mutating func parseExpression() throws(PredicateError) -> PredicateOperand {
        guard let token = current else { throw PredicateError("the predicate ends where a value or key was expected") }
        position += 1
        let operand: PredicateOperand
        switch token.kind {
        case .value(let value): operand = .value(value)
        case .key(let key), .escapedIdentifier(let key): operand = .key(key)
        case .string(let text): operand = .value(.string(text))
        case .integer(let number): operand = .value(.int64(number))
        case .decimal(let number): operand = .value(.double(number))
        case .symbol("-"): operand = .value(try negatedNumber(at: token.offset))
        case .symbol("{"): operand = .value(.list(try parseAggregate()))
        case .identifier(let word): operand = try parseWord(word, at: token.offset)
        case .variable(let name):
            throw PredicateError("substitution variables ($\(name)) aren't supported by CloudKit")
        default:
            position -= 1
            throw unexpected()
        }
        try rejectPostfix()
        return operand
    }

    private mutating func parseWord(_ word: String, at offset: Int) throws(PredicateError) -> PredicateOperand {
        let upper = word.uppercased()
        switch upper {
        case "TRUE", "YES": return .value(.int64(1))
        case "FALSE", "NO": return .value(.int64(0))
        case "NULL", "NIL": throw PredicateError("CloudKit can't compare with nil (offset \(offset))")
        case "SELF": return .evaluatedObject
        case "CAST": return .value(try parseCast())
        default: break
        }
        if isSymbol("(") { return try parseFunction(word, at: offset) }
        if Self.reservedWords.contains(upper) {
            throw PredicateError("'\(word)' at offset \(offset) is a reserved word: write #\(word) to name a key")
        }
        if word.contains(":") { throw PredicateError("'\(word)' at offset \(offset) isn't a function call") }
        return .key(word)
    }

    private mutating func parseFunction(_ name: String, at offset: Int) throws(PredicateError) -> PredicateOperand {
        try expectSymbol("(")
        var arguments: [PredicateOperand] = []
        if !acceptSymbol(")") {
            repeat { arguments.append(try parseExpression()) } while acceptSymbol(",")
            try expectSymbol(")")
        }
        switch (name, arguments.count) {
        case ("distanceToLocation:fromLocation:", 2):
            return .distance(arguments[0], arguments[1])
        case ("now", 0):
            return .value(try PredicateValues.now())
        case ("tokenize:using:", _):
            throw PredicateError("tokenize:using: isn't supported: write a tokenized search as self CONTAINS 'words'")
        default:
            throw PredicateError("CloudKit doesn't support the function \(name) with \(arguments.count) arguments (offset \(offset))")
        }
    }

    /// `CAST(seconds, "NSDate")`: seconds since 2001-01-01, as Foundation prints date constants.
    private mutating func parseCast() throws(PredicateError) -> FieldValue {
        try expectSymbol("(")
        let subject = try parseExpression()
        try expectSymbol(",")
        let type = try parseExpression()
        try expectSymbol(")")
        guard case .value(.string("NSDate")) = type else {
            throw PredicateError("CloudKit supports CAST only to \"NSDate\"")
        }
        switch subject {
        case .value(.int64(let seconds)): return try PredicateValues.timestamp(sinceReferenceDate: Double(seconds))
        case .value(.double(let seconds)): return try PredicateValues.timestamp(sinceReferenceDate: seconds)
        default: throw PredicateError("CAST(…, \"NSDate\") needs a number of seconds")
        }
    }

    private mutating func parseAggregate() throws(PredicateError) -> [FieldValue] {
        var items: [FieldValue] = []
        if acceptSymbol("}") { return items }
        repeat {
            let item = try parseExpression()
            guard case .value(let value) = item else {
                throw PredicateError("an aggregate {…} may hold only values, not \(item)")
            }
            if case .list = value { throw PredicateError("aggregates {…} can't be nested") }
            items.append(value)
        } while acceptSymbol(",")
        try expectSymbol("}")
        return items
    }

    private mutating func negatedNumber(at offset: Int) throws(PredicateError) -> FieldValue {
        let token = current
        position += 1
        switch token?.kind {
        case .integer(let number)?, .value(.int64(let number))?:
            let (negated, overflow) = Int64(0).subtractingReportingOverflow(number)
            guard !overflow else { break }
            return .int64(negated)
        case .decimal(let number)?, .value(.double(let number))?:
            return .double(-number)
        default:
            break
        }
        throw PredicateError("'-' at offset \(offset) must precede a number: CloudKit doesn't support arithmetic")
    }

    /// Refuses what may follow an expression in NSPredicate but not in CloudKit.
    private func rejectPostfix() throws(PredicateError) {
        guard let token = current, case .symbol(let symbol) = token.kind else { return }
        switch symbol {
        case ".":
            throw PredicateError("key paths (offset \(token.offset)) aren't supported: a CloudKit key names a field of the record itself")
        case "[": throw PredicateError("subscripts (offset \(token.offset)) aren't supported by CloudKit")
        case "+", "-", "*", "/", "**": throw PredicateError("arithmetic (offset \(token.offset)) isn't supported by CloudKit")
        default: return
        }
    }

    // MARK: - Tokens

    private var current: PredicateToken? { position < tokens.count ? tokens[position] : nil }

    private func isWord(_ word: String) -> Bool {
        guard case .identifier(let name)? = current?.kind else { return false }
        return name.uppercased() == word
    }

    private func isSymbol(_ symbol: String) -> Bool {
        guard case .symbol(let found)? = current?.kind else { return false }
        return found == symbol
    }

    private mutating func acceptWord(_ word: String) -> Bool {
        guard isWord(word) else { return false }
        position += 1
        return true
    }

    private mutating func acceptSymbol(_ symbol: String) -> Bool {
        guard isSymbol(symbol) else { return false }
        position += 1
        return true
    }

    private mutating func expectSymbol(_ symbol: String) throws(PredicateError) {
        guard acceptSymbol(symbol) else {
            guard let token = current else { throw PredicateError("the predicate ends where '\(symbol)' was expected") }
            throw PredicateError("expected '\(symbol)' at offset \(token.offset)")
        }
    }

    private func unexpected() -> PredicateError {
        guard let token = current else { return PredicateError("the predicate ends unexpectedly") }
        return PredicateError("unexpected \(Self.describe(token.kind)) at offset \(token.offset)")
    }

    private static func describe(_ kind: PredicateToken.Kind) -> String {
        switch kind {
        case .identifier(let word), .escapedIdentifier(let word), .key(let word): "'\(word)'"
        case .string(let text): "string '\(text)'"
        case .integer(let number): "number \(number)"
        case .decimal(let number): "number \(number)"
        case .argument: "format argument"
        case .variable(let name): "variable $\(name)"
        case .options(let letters): "options [\(letters)]"
        case .symbol(let symbol): "'\(symbol)'"
        case .value: "argument value"
        }
    }
}
