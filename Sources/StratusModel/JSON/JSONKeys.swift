/// The keys a ``JSONReadable`` type reads from its object, numbered by their order:
/// ``JSONReader/object(_:_:)`` matches each key against them and notes it, and steps aside on one
/// given twice (`JSONDecoder`'s to decide). So a reader names its keys once, as an enum, and never
/// numbers them by hand.
public struct JSONKeys<Key: RawRepresentable & CaseIterable & Sendable>: Sendable where Key.RawValue == String {
    fileprivate let cases: [Key]
    fileprivate let names: [String]

    public init() {
        cases = Array(Key.allCases)
        names = cases.map(\.rawValue)
        precondition(cases.count <= UInt64.bitWidth, "a reader notes at most 64 keys of an object")
    }
}

extension JSONReader {
    /// Calls `member` with each key of an object, positioned at its value, which `member` must read
    /// or skip (``skipValue()``): as one of `keys`, or `nil` for a key the type does not have. A
    /// key of `keys` given twice is left to `JSONDecoder`.
    public mutating func object<Key>(_ keys: JSONKeys<Key>, _ member: (inout JSONReader, Key?) throws -> Void) throws {
        var seen: UInt64 = 0
        try object { json, name in
            guard let position = keys.names.firstIndex(of: name) else { return try member(&json, nil) }
            let bit: UInt64 = 1 << position
            guard seen & bit == 0 else { throw Unsupported() }
            seen |= bit
            try member(&json, keys.cases[position])
        }
    }
}
