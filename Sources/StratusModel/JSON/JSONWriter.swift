import Foundation

/// Writes JSON straight into a byte array, for the few types the server writes on every request
/// (records and their fields): several times cheaper than `JSONEncoder`, whose `Encoder` boxes
/// every value and key. The output is the JSON `JSONEncoder` writes for the same value — the same
/// escapes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, `\u00xx`; `\/` unless slashes are left
/// alone), numbers spelled the same way — which `JSONWriterTests` checks value by value. Keys come in
/// each type's declaration order (`JSONEncoder` on Linux orders an object's keys by hash). Types that are rare on the hot path are written by `JSONEncoder` inside it
/// (``encodable(_:)``).
public struct JSONWriter {
    /// The JSON written so far.
    public private(set) var bytes: [UInt8] = []
    /// Numbers in fields are written as strings (the `numbersAsStrings` request flag).
    public let numbersAsStrings: Bool
    /// `/` is written as `\/`, as `JSONEncoder` does unless told `.withoutEscapingSlashes`.
    public let escapesSlashes: Bool
    /// What is written beyond CKWS's keys: a field's `exactDates`, a tombstone's `recordType`.
    public let extensions: WireExtensions

    public init(numbersAsStrings: Bool = false, escapesSlashes: Bool = false, extensions: WireExtensions = [], capacity: Int = 512) {
        self.numbersAsStrings = numbersAsStrings
        self.escapesSlashes = escapesSlashes
        self.extensions = extensions
        bytes.reserveCapacity(capacity)
    }

    // MARK: Structure

    public mutating func beginObject() { bytes.append(UInt8(ascii: "{")) }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")) }
    public mutating func beginArray() { bytes.append(UInt8(ascii: "[")) }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")) }

    /// Starts a member of the open object (or an element of the open array when `key` is `nil`),
    /// with the comma before it unless it is the first.
    public mutating func member(_ key: String?) {
        if let last = bytes.last, last != UInt8(ascii: "{"), last != UInt8(ascii: "[") {
            bytes.append(UInt8(ascii: ","))
        }
        if let key {
            string(key)
            bytes.append(UInt8(ascii: ":"))
        }
    }

    // MARK: Members, skipped when `nil` (as `encodeIfPresent` does)

    public mutating func member(_ key: String, _ value: String?) {
        guard let value else { return }
        member(key)
        string(value)
    }

    public mutating func member(_ key: String, _ value: Int64?) {
        guard let value else { return }
        member(key)
        integer(value)
    }

    public mutating func member(_ key: String, _ value: Double?) throws {
        guard let value else { return }
        member(key)
        try double(value)
    }

    public mutating func member(_ key: String, _ value: Bool?) {
        guard let value else { return }
        member(key)
        bytes.append(contentsOf: value ? Self.trueBytes : Self.falseBytes)
    }

    public mutating func member(_ key: String, _ value: (some JSONWritable)?) throws {
        guard let value else { return }
        member(key)
        try value.write(to: &self)
    }

    /// A member written by `JSONEncoder`: for values that are rare where this writer is used.
    public mutating func member(_ key: String, encoding value: (some Encodable)?) throws {
        guard let value else { return }
        member(key)
        try encodable(value)
    }

    // MARK: Values

    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || (byte == UInt8(ascii: "/") && escapesSlashes) else {
                    continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    public mutating func integer(_ number: Int64) {
        bytes.append(contentsOf: String(number).utf8)
    }

    /// A finite double as `JSONEncoder` spells it: Swift's shortest form without a trailing `.0`.
    /// - Throws: `EncodingError.invalidValue` for infinities and NaN, as `JSONEncoder` does.
    public mutating func double(_ number: Double) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(codingPath: [], debugDescription: "Unable to encode \(number) directly in JSON."))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        bytes.append(contentsOf: text.utf8)
    }

    /// `value` encoded by `JSONEncoder` with this writer's options.
    public mutating func encodable(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        if !escapesSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
        if numbersAsStrings { encoder.userInfo[.numbersAsStrings] = true }
        if !extensions.isEmpty { encoder.userInfo[.wireExtensions] = extensions }
        bytes.append(contentsOf: try encoder.encode(value))
    }

    private mutating func escape(_ byte: UInt8) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        default:
            bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]])
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
    private static let trueBytes = Array("true".utf8)
    private static let falseBytes = Array("false".utf8)
}

/// A type ``JSONWriter`` writes without `JSONEncoder`. Its `Encodable` conformance stays the
/// definition of its JSON; `write(to:)` must produce the same JSON, which tests check.
public protocol JSONWritable: Encodable {
    func write(to json: inout JSONWriter) throws
}

extension JSONWritable {
    /// This value as JSON bytes.
    public func jsonBytes(numbersAsStrings: Bool = false, escapesSlashes: Bool = false, extensions: WireExtensions = []) throws -> [UInt8] {
        var writer = JSONWriter(numbersAsStrings: numbersAsStrings, escapesSlashes: escapesSlashes, extensions: extensions)
        try write(to: &writer)
        return writer.bytes
    }
}

extension Array: JSONWritable where Element: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginArray()
        for element in self {
            json.member(nil)
            try element.write(to: &json)
        }
        json.endArray()
    }
}

extension Dictionary: JSONWritable where Key == String, Value: JSONWritable {
    public func write(to json: inout JSONWriter) throws {
        json.beginObject()
        for (key, value) in self {
            json.member(key)
            try value.write(to: &json)
        }
        json.endObject()
    }
}
