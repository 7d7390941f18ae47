import Foundation
import StratusStore

/// How a user field of `records.fields` (`jsonb`: `{"name": {"value": …, "type": …}}`) is read
/// in SQL: the expression queries filter and sort by, and the expression index built over the
/// same expression so PostgreSQL's planner can use it. Field names are checked before they are
/// written into SQL (ASCII letters, digits, `_` and `.`), so a name can never close its literal.
enum PostgresFieldSQL {
    /// The field's value as `jsonb` (a reference: the referenced record's name).
    static func expression(_ name: String, reference: Bool) throws -> String {
        let literal = try literal(name)
        return reference ? "(fields -> \(literal) -> 'value' -> 'recordName')" : "(fields -> \(literal) -> 'value')"
    }

    /// The field's value as text (strings: their characters), for prefixes and tokens.
    static func text(_ name: String, reference: Bool) throws -> String {
        let literal = try literal(name)
        return reference ? "(fields -> \(literal) -> 'value' ->> 'recordName')" : "(fields -> \(literal) ->> 'value')"
    }

    /// The quoted name of a field's expression index. PostgreSQL keeps 63 bytes of a name: a
    /// longer one keeps a prefix and a hash of the whole, so two long names never share an index.
    static func indexName(_ name: String) throws -> String {
        _ = try literal(name)
        let full = "records_field_" + name.replacingOccurrences(of: ".", with: "__")
        guard full.utf8.count > 63 else { return "\"\(full)\"" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "\"\(full.prefix(46))_\(String(hash, radix: 16))\""
    }

    /// The field name as an SQL string literal.
    static func literal(_ name: String) throws -> String {
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == ".") }) else {
            throw StoreError(.failure, "invalid field name in query")
        }
        return "'\(name)'"
    }
}
