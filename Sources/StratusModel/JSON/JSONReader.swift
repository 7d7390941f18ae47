/// Reads JSON straight into the request types the server decodes on every write (records/modify
/// bodies), several times cheaper than `JSONDecoder`'s `Decoder` containers.
///
/// It is a fast path, never a second definition: each type's `Decodable` conformance stays the
/// rule. A reader gives up (``Unsupported``) on anything it is not certain to decode exactly as
/// `JSONDecoder` would — a key it does not handle, a repeated key, a number or string outside
/// the plain forms, invalid JSON — and the caller then decodes with `JSONDecoder`, which also
/// words every error. `JSONReaderTests` checks that both agree wherever the reader answers.
public struct JSONReader {
    /// Thrown where the reader leaves the body to `JSONDecoder`.
    public struct Unsupported: Error {}

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    /// Objects and arrays open around the position: deeper than ``maximumDepth`` is left to
    /// `JSONDecoder` (and its own limit) rather than recursing on.
    private var depth = 0
    private static let maximumDepth = 32

    private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    /// `T` read from `bytes`, or `nil` where `JSONDecoder` must decide.
    public static func read<T: JSONReadable>(_ type: T.Type, from bytes: UnsafeRawBufferPointer) -> T? {
        var reader = JSONReader(bytes)
        guard let value = try? T.read(from: &reader), reader.atEnd() else { return nil }
        return value
    }

    // MARK: Structure

    /// Calls `member` with each key of an object, positioned at its value, which `member` must read
    /// or skip (``skipValue()``).
    public mutating func object(_ member: (inout JSONReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        try descend()
        defer { depth -= 1 }
        if try peek() == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return
            default: throw Unsupported()
            }
        }
    }

    /// Reads each element of an array with `element`.
    public mutating func array<Element>(_ element: (inout JSONReader) throws -> Element) throws -> [Element] {
        try expect(UInt8(ascii: "["))
        try descend()
        defer { depth -= 1 }
        var elements: [Element] = []
        if try peek() == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try element(&self))
            switch try next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return elements
            default: throw Unsupported()
            }
        }
    }

    /// Whether the next value is `null` (consumed if so).
    public mutating func null() throws -> Bool {
        guard try peek() == UInt8(ascii: "n") else { return false }
        try literal("null")
        return true
    }

    /// Whether the next value is a string (not consumed).
    public mutating func isString() throws -> Bool { try peek() == UInt8(ascii: "\"") }

    /// Skips a value of a key the type does not have, as `JSONDecoder` ignores it.
    public mutating func skipValue() throws {
        switch try peek() {
        case UInt8(ascii: "{"): try object { reader, _ in try reader.skipValue() }
        case UInt8(ascii: "["): _ = try array { reader in try reader.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default: _ = try numberToken()
        }
    }

    // MARK: Scalars

    public mutating func bool() throws -> Bool {
        switch try peek() {
        case UInt8(ascii: "t"): try literal("true"); return true
        case UInt8(ascii: "f"): try literal("false"); return false
        default: throw Unsupported()
        }
    }

    /// A string without escapes, or with the common ones; valid UTF-8 only.
    public mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return try text(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw Unsupported() }
            index += 1
        }
        throw Unsupported()
    }

    /// An integer written as one (`-`, digits, no fraction or exponent) that fits in 64 bits.
    public mutating func int64() throws -> Int64 {
        let token = try numberToken()
        guard !token.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }),
            !token.elementsEqual("-0".utf8), let number = Int64(String(decoding: token, as: UTF8.self))
        else { throw Unsupported() }
        return number
    }

    /// Any JSON number, as the nearest double; one too large or too small for a double (which
    /// `JSONDecoder` refuses rather than round to infinity or zero) is its to refuse.
    public mutating func double() throws -> Double {
        let token = try numberToken()
        guard let number = Double(String(decoding: token, as: UTF8.self)), number.isFinite else { throw Unsupported() }
        if number == 0 {
            let mantissa = token.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
            guard mantissa.allSatisfy({ !(UInt8(ascii: "1")...UInt8(ascii: "9")).contains($0) }) else { throw Unsupported() }
        }
        return number
    }

    // MARK: Internals

    fileprivate mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    private mutating func descend() throws {
        depth += 1
        guard depth <= Self.maximumDepth else { throw Unsupported() }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private mutating func peek() throws -> UInt8 {
        skipWhitespace()
        guard index < bytes.count else { throw Unsupported() }
        return bytes[index]
    }

    private mutating func next() throws -> UInt8 {
        let byte = try peek()
        index += 1
        return byte
    }

    private mutating func expect(_ byte: UInt8) throws {
        guard try next() == byte else { throw Unsupported() }
    }

    private mutating func literal(_ word: StaticString) throws {
        _ = try peek()
        let length = word.utf8CodeUnitCount
        guard index + length <= bytes.count else { throw Unsupported() }
        for offset in 0..<length where bytes[index + offset] != word.utf8Start[offset] { throw Unsupported() }
        index += length
    }

    /// The bytes of a number in JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func numberToken() throws -> UnsafeRawBufferPointer.SubSequence {
        _ = try peek()
        let start = index
        func digits(_ reader: inout JSONReader) -> Int {
            let first = reader.index
            while reader.index < reader.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(reader.bytes[reader.index]) { reader.index += 1 }
            return reader.index - first
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        let integerDigits = digits(&self)
        guard integerDigits > 0, integerDigits == 1 || bytes[integerStart] != UInt8(ascii: "0") else { throw Unsupported() }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits(&self) > 0 else { throw Unsupported() }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw Unsupported() }
        }
        return bytes[start..<index]
    }

    /// The rest of a string holding escapes, from its first byte at `start`.
    private mutating func escapedString(from start: Int) throws -> String {
        var decoded = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try decoded.withUnsafeBytes { try text($0) }
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { throw Unsupported() }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    // Outside the surrogates only: pairs and lone halves are `JSONDecoder`'s.
                    guard let scalar = Unicode.Scalar(try hexQuad()) else { throw Unsupported() }
                    decoded.append(contentsOf: String(scalar).utf8)
                default: throw Unsupported()
                }
            default:
                guard byte >= 0x20 else { throw Unsupported() }
                decoded.append(byte)
            }
        }
        throw Unsupported()
    }

    private mutating func hexQuad() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw Unsupported() }
        var value: UInt32 = 0
        for byte in bytes[index..<index + 4] {
            guard let digit = Character(UnicodeScalar(byte)).hexDigitValue else { throw Unsupported() }
            value = value << 4 | UInt32(digit)
        }
        index += 4
        return value
    }

    private func text(_ utf8: UnsafeRawBufferPointer) throws -> String {
        guard let text = String(validating: utf8, as: UTF8.self) else { throw Unsupported() }
        return text
    }
}

/// A type ``JSONReader`` reads without `JSONDecoder`, exactly as its `Decodable` conformance
/// does wherever it answers (it throws ``JSONReader/Unsupported`` elsewhere).
public protocol JSONReadable: Decodable {
    static func read(from json: inout JSONReader) throws -> Self
}
