import StratusModel

/// One lexical token of a predicate format string.
struct PredicateToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// A bare word: a key, a reserved word, or a selector such as `distanceToLocation:fromLocation:`.
        case identifier(String)
        /// `#word`: a key even when it spells a reserved word.
        case escapedIdentifier(String)
        /// A quoted literal, `'…'` or `"…"`, escapes resolved.
        case string(String)
        case integer(Int64)
        case decimal(Double)
        /// A `%` specifier not yet matched with its argument.
        case argument(FormatSpecifier)
        /// `$name`: a substitution variable (CloudKit has none).
        case variable(String)
        /// The letters of `[cd]` written after an operator.
        case options(String)
        /// Punctuation and symbolic operators: `(`, `)`, `{`, `}`, `,`, `==`, `&&`, …
        case symbol(String)
        /// A `%K` argument, substituted.
        case key(String)
        /// A `%@`, `%d` or `%f` argument, substituted.
        case value(FieldValue)
    }

    var kind: Kind
    /// Where the token starts in the format, in characters.
    var offset: Int
}

/// What a `%` specifier asks of its argument.
enum FormatSpecifier: Sendable, Hashable {
    /// `%@`: an object, converted by the caller's `value` function.
    case object
    /// `%K`: a key name.
    case key
    /// `%d`, `%i`, `%ld`, `%u`, … : an integer.
    case integer
    /// `%f`, `%lf`, `%g`, … : a floating-point number.
    case floatingPoint
}

/// Splits a predicate format string into ``PredicateToken``s, following NSPredicate's lexical rules
/// for the parts CloudKit uses.
struct PredicateTokenizer {
    private let characters: [Character]
    private var index = 0

    /// Symbols, longest first so `==` wins over `=`.
    private static let symbols: [[Character]] = [
        "==", ">=", "=>", "<=", "=<", "!=", "<>", "&&", "||", "**",
        "=", ">", "<", "!", "(", ")", "{", "}", ",", ".", "+", "-", "*", "/", "[", "]", ":", "@",
    ].map { Array($0) }

    /// The tokens of `format`.
    /// - Throws: ``PredicateError`` for an unterminated string, a malformed number or specifier,
    ///   or a character NSPredicate's grammar has no place for.
    static func tokens(in format: String) throws(PredicateError) -> [PredicateToken] {
        var tokenizer = PredicateTokenizer(characters: Array(format))
        var tokens: [PredicateToken] = []
        while let token = try tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private init(characters: [Character]) {
        self.characters = characters
    }

    private var current: Character? { index < characters.count ? characters[index] : nil }

    private func character(at offset: Int) -> Character? {
        index + offset < characters.count ? characters[index + offset] : nil
    }

    private mutating func next() throws(PredicateError) -> PredicateToken? {
        while let blank = current, blank.isWhitespace { index += 1 }
        guard let first = current else { return nil }
        let start = index
        let kind: PredicateToken.Kind
        if first == "'" || first == "\"" {
            kind = .string(try quoted())
        } else if first.isASCIIDigit {
            kind = try number()
        } else if first.isIdentifierStart {
            kind = .identifier(selector())
        } else if first == "#", character(at: 1)?.isIdentifierStart == true {
            index += 1
            kind = .escapedIdentifier(word())
        } else if first == "$" {
            index += 1
            kind = .variable(word())
        } else if first == "%" {
            kind = .argument(try specifier())
        } else if first == "[", let letters = options() {
            kind = .options(letters)
        } else {
            kind = .symbol(try symbol())
        }
        return PredicateToken(kind: kind, offset: start)
    }

    /// A word, and any `:`-joined continuation (`distanceToLocation:fromLocation:`).
    private mutating func selector() -> String {
        var name = word()
        while current == ":" {
            name.append(":")
            index += 1
            guard current?.isIdentifierStart == true else { break }
            name += word()
        }
        return name
    }

    private mutating func word() -> String {
        let start = index
        while let character = current, character.isIdentifierStart || character.isASCIIDigit { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func quoted() throws(PredicateError) -> String {
        let start = index
        guard let quote = current else { throw PredicateError("unterminated string at offset \(start)") }
        index += 1
        var text = ""
        while let character = current {
            index += 1
            if character == quote { return text }
            guard character == "\\", let escaped = current else {
                text.append(character)
                continue
            }
            index += 1
            switch escaped {
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u":
                let hex = String(characters[index..<min(index + 4, characters.count)])
                guard hex.count == 4, let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) else {
                    throw PredicateError("malformed \\u escape at offset \(index - 2)")
                }
                text.unicodeScalars.append(scalar)
                index += 4
            default: text.append(escaped)
            }
        }
        throw PredicateError("unterminated string starting at offset \(start)")
    }

    private mutating func number() throws(PredicateError) -> PredicateToken.Kind {
        let start = index
        if current == "0", let marker = character(at: 1), let radix = Self.radix(marker) {
            index += 2
            let digitsStart = index
            while let character = current, character.isIdentifierStart || character.isASCIIDigit { index += 1 }
            guard let value = Int64(String(characters[digitsStart..<index]), radix: radix) else {
                throw PredicateError("malformed number '\(String(characters[start..<index]))' at offset \(start)")
            }
            return .integer(value)
        }
        var isDecimal = false
        skipDigits()
        if current == ".", character(at: 1)?.isASCIIDigit == true {
            isDecimal = true
            index += 1
            skipDigits()
        }
        if current == "e" || current == "E" {
            let signed = character(at: 1) == "+" || character(at: 1) == "-"
            if character(at: signed ? 2 : 1)?.isASCIIDigit == true {
                isDecimal = true
                index += signed ? 2 : 1
                skipDigits()
            }
        }
        let text = String(characters[start..<index])
        if isDecimal, let value = Double(text), value.isFinite { return .decimal(value) }
        if !isDecimal, let value = Int64(text) { return .integer(value) }
        throw PredicateError("number '\(text)' at offset \(start) is out of range")
    }

    private mutating func skipDigits() {
        while current?.isASCIIDigit == true { index += 1 }
    }

    private static func radix(_ marker: Character) -> Int? {
        switch marker {
        case "x", "X": 16
        case "o", "O": 8
        case "b", "B": 2
        default: nil
        }
    }

    private mutating func specifier() throws(PredicateError) -> FormatSpecifier {
        let start = index
        index += 1
        while let character = current, "hlqLzjt".contains(character) { index += 1 }
        guard let conversion = current else {
            throw PredicateError("incomplete format specifier at offset \(start)")
        }
        index += 1
        switch conversion {
        case "@": return .object
        case "K": return .key
        case "d", "i", "u", "o", "x", "X", "D", "U", "O": return .integer
        case "f", "F", "e", "E", "g", "G", "a", "A": return .floatingPoint
        default:
            throw PredicateError("unsupported format specifier '%\(conversion)' at offset \(start)")
        }
    }

    /// `[letters]` after an operator; `nil` (nothing consumed) when the bracket is something else.
    private mutating func options() -> String? {
        var cursor = index + 1
        var letters = ""
        while cursor < characters.count, characters[cursor].isASCII, characters[cursor].isLetter {
            letters.append(characters[cursor])
            cursor += 1
        }
        guard !letters.isEmpty, cursor < characters.count, characters[cursor] == "]" else { return nil }
        index = cursor + 1
        return letters
    }

    private mutating func symbol() throws(PredicateError) -> String {
        for symbol in Self.symbols where index + symbol.count <= characters.count {
            if Array(characters[index..<index + symbol.count]) == symbol {
                index += symbol.count
                return String(symbol)
            }
        }
        throw PredicateError("unexpected character '\(characters[index])' at offset \(index)")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
    fileprivate var isIdentifierStart: Bool { (isASCII && isLetter) || self == "_" }
}
