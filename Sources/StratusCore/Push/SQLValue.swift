import Foundation
import StratusModel
import StratusStore

/// A value as the SQLite store's query SQL sees it, so ``RecordPredicate`` can decide in memory
/// exactly as records/query decides in SQL. `nil` (`SQLValue?`) stands for SQL's NULL.
///
/// The rules are SQLite's (the default store's; PostgreSQL decides alike for values of the
/// filter's own type): numbers compare numerically and sort below text, text compares byte for
/// byte (case-sensitive, the `BINARY` collation), and a column's affinity converts the bound
/// value first (text system fields read numbers as text, timestamps read numeric text as numbers).
enum SQLValue: Sendable, Hashable {
    case integer(Int64)
    case real(Double)
    case text(String)

    /// How a column converts the value compared with it.
    enum Affinity: Sendable {
        /// `json_extract` results and bound parameters: no conversion.
        case plain
        /// `record_name`, `created_by`, `modified_by`: numbers become text.
        case text
        /// `created_at`, `modified_at`: numeric text becomes a number.
        case integer
    }

    // MARK: - From field values

    /// What `json_extract(fields, '$."name".value')` answers for a stored value: scalars typed as
    /// their JSON (a double the store writes without a fraction reads as an integer), objects and
    /// lists as their JSON text.
    static func extracted(_ value: FieldValue) -> SQLValue {
        switch value {
        case .string(let text): return .text(text)
        case .int64(let number), .timestamp(let number): return .integer(number)
        case .double(let number): return jsonInteger(jsonNumber(number)) ?? .real(number)
        case .bytes(let data): return .text(data.base64EncodedString())
        case .location, .reference, .asset, .list: return .text(json(value))
        }
    }

    /// What a filter's value is bound as (`QuerySQL.databaseValue`): locations, assets and lists
    /// bind NULL.
    static func bound(_ value: FieldValue) -> SQLValue? {
        switch value {
        case .string(let text): return SQLValue.text(text)
        case .int64(let number), .timestamp(let number): return SQLValue.integer(number)
        case .double(let number): return SQLValue.real(number)
        case .bytes(let data): return SQLValue.text(data.base64EncodedString())
        case .reference(let reference): return SQLValue.text(reference.recordName)
        case .location, .asset, .list: return nil
        }
    }

    /// The items a list value binds (a single value binds alone).
    static func boundItems(_ value: FieldValue) -> [SQLValue?] {
        if case .list(let items) = value { return items.map(bound) }
        return [bound(value)]
    }

    /// The value with a column's affinity applied.
    func applying(_ affinity: Affinity) -> SQLValue {
        switch (affinity, self) {
        case (.text, .integer), (.text, .real): return SQLValue.text(self.text)
        case (.integer, .text(let literal)): return SQLValue.parsedNumber(literal) ?? self
        default: return self
        }
    }

    // MARK: - Comparison

    /// -1, 0 or 1 in SQLite's order: numbers (numerically) before text (byte-wise).
    func compare(_ other: SQLValue) -> Int {
        switch (self, other) {
        case (.integer(let a), .integer(let b)): return a == b ? 0 : (a < b ? -1 : 1)
        case (.text(let a), .text(let b)):
            if a.utf8.elementsEqual(b.utf8) { return 0 }
            return a.utf8.lexicographicallyPrecedes(b.utf8) ? -1 : 1
        case (.text, _): return 1
        case (_, .text): return -1
        default:
            let (a, b) = (numeric, other.numeric)
            return a == b ? 0 : (a < b ? -1 : 1)
        }
    }

    /// `lhs = rhs` with `lhs`'s column affinity: NULL when either side is.
    static func equals(_ lhs: SQLValue?, _ rhs: SQLValue?, affinity: Affinity = .plain) -> Bool? {
        order(lhs, rhs, affinity: affinity).map { $0 == 0 }
    }

    /// The order of `lhs` and `rhs` after `lhs`'s column affinity: NULL when either side is.
    static func order(_ lhs: SQLValue?, _ rhs: SQLValue?, affinity: Affinity = .plain) -> Int? {
        guard let lhs, let rhs else { return nil }
        return lhs.compare(rhs.applying(affinity))
    }

    /// `lhs IN (items)`: true on an equal item, NULL when none is equal but one is NULL.
    static func isIn(_ lhs: SQLValue?, _ items: [SQLValue?], affinity: Affinity = .plain) -> Bool? {
        guard let lhs else { return nil }
        var sawNull = false
        for item in items {
            guard let item else {
                sawNull = true
                continue
            }
            if lhs.compare(item.applying(affinity)) == 0 { return true }
        }
        return sawNull ? nil : false
    }

    // MARK: - Text

    /// The value as SQL functions (`substr`, `lower`) read it: numbers as their text.
    var text: String {
        switch self {
        case .text(let text): text
        case .integer(let number): String(number)
        case .real(let number): SQLValue.realText(number)
        }
    }

    /// `substr(value, 1, length(prefix)) = prefix`: whether the text starts with `prefix`,
    /// character for character (UTF-8 bytes, as SQLite compares).
    func hasPrefix(_ prefix: String) -> Bool {
        self.text.utf8.starts(with: prefix.utf8)
    }

    private var numeric: Double {
        switch self {
        case .integer(let number): Double(number)
        case .real(let number): number
        case .text: .nan
        }
    }

    /// SQLite's text of a REAL (`%!.15g`: 15 significant digits, always a decimal point).
    static func realText(_ number: Double) -> String {
        guard number.isFinite else { return number.isNaN ? "NaN" : (number < 0 ? "-Inf" : "Inf") }
        var text = String(format: "%.15g", number)
        if !text.contains(".") {
            if let exponent = text.firstIndex(of: "e") { text.insert(contentsOf: ".0", at: exponent) } else { text += ".0" }
        }
        return text
    }

    /// A well-formed numeric literal as NUMERIC affinity reads it: an integer, or a real (an
    /// integer when it has no fraction); `nil` for any other text.
    private static func parsedNumber(_ literal: String) -> SQLValue? {
        let trimmed = literal.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.unicodeScalars.allSatisfy({ "0123456789+-.eE".unicodeScalars.contains($0) }) else { return nil }
        if let integer = Int64(trimmed) { return .integer(integer) }
        guard let real = Double(trimmed), real.isFinite else { return nil }
        if real.rounded() == real, abs(real) < 9.2e18 { return .integer(Int64(real)) }
        return .real(real)
    }

    /// A JSON number's text as SQLite types it: digits only read as an integer.
    private static func jsonInteger(_ text: String) -> SQLValue? {
        Int64(text).map(SQLValue.integer)
    }

    // MARK: - JSON text

    /// A double as the store's `JSONEncoder` writes it (a `.0` fraction dropped).
    private static func jsonNumber(_ number: Double) -> String {
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// The JSON text the store keeps for a value (what `json_extract` answers for an object or
    /// a list): encoded as the store's `JSONEncoder` encodes a record's fields.
    static func json(_ value: FieldValue) -> String {
        let encoder = JSONEncoder()
        func encoded(_ item: some Encodable) -> String {
            ((try? encoder.encode(item)).map { String(decoding: $0, as: UTF8.self) }) ?? "null"
        }
        switch value {
        case .string(let text): return encoded(text)
        case .int64(let number), .timestamp(let number): return String(number)
        case .double(let number): return jsonNumber(number)
        case .bytes(let data): return encoded(data.base64EncodedString())
        case .location(let location): return encoded(location)
        case .reference(let reference): return encoded(reference)
        case .asset(let asset): return encoded(asset)
        case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
        }
    }
}
