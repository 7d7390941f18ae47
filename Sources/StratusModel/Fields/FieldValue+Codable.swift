import Foundation

extension FieldValue {
    /// Decodes a value whose type the request named; numbers given as strings are accepted.
    static func decode(as type: FieldType, from decoder: any Decoder) throws -> FieldValue {
        if let element = type.elementType {
            var container = try decoder.unkeyedContainer()
            var items: [FieldValue] = []
            while !container.isAtEnd {
                items.append(try decode(as: element, from: container.superDecoder()))
            }
            return .list(items)
        }
        let container = try decoder.singleValueContainer()
        func mismatch() -> DecodingError {
            .typeMismatch(FieldValue.self, .init(codingPath: decoder.codingPath, debugDescription: "value is not a valid \(type.rawValue)"))
        }
        switch type {
        case .string:
            return .string(try container.decode(String.self))
        case .int64:
            if let number = try? container.decode(Int64.self) { return .int64(number) }
            if let flag = try? container.decode(Bool.self) { return .int64(flag ? 1 : 0) }
            guard let text = try? container.decode(String.self), let number = integer(fromText: text) else { throw mismatch() }
            return .int64(number)
        case .timestamp:
            if let number = try? container.decode(Int64.self) { return .timestamp(number) }
            if let number = try? container.decode(Double.self), number.rounded() == number, abs(number) < 9.2e18 {
                return .timestamp(Int64(number))
            }
            guard let text = try? container.decode(String.self), let number = integer(fromText: text) else { throw mismatch() }
            return .timestamp(number)
        case .double:
            if let number = try? container.decode(Double.self) { return .double(number) }
            guard let text = try? container.decode(String.self), let number = decimal(fromText: text) else { throw mismatch() }
            return .double(number)
        case .bytes, .encryptedBytes:
            guard let text = try? container.decode(String.self), let data = Data(base64Encoded: text) else {
                throw mismatch()
            }
            return .bytes(data)
        case .location:
            return .location(try container.decode(Location.self))
        case .reference:
            return .reference(try container.decode(Reference.self))
        case .asset, .assetID:
            return .asset(try container.decode(AssetValue.self))
        default:
            throw mismatch()
        }
    }

    /// A number sent as text: an optional sign and 1–18 digits (never out of range), as
    /// `openapi.yaml` describes it.
    static func integer(fromText text: String) -> Int64? {
        var digits = Substring(text)
        if let sign = digits.first, sign == "-" || sign == "+" { digits = digits.dropFirst() }
        guard (1...18).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }

    /// A decimal sent as text: an integer as above, optionally `.` and 1–18 more digits.
    static func decimal(fromText text: String) -> Double? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard integer(fromText: String(parts[0])) != nil else { return nil }
        if parts.count == 2 {
            guard (1...18).contains(parts[1].count), parts[1].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        }
        return Double(text)
    }

    /// Decodes a value sent without a `type`, inferring it from the JSON shape.
    static func decodeInferring(from decoder: any Decoder) throws -> FieldValue {
        if var list = try? decoder.unkeyedContainer() {
            var items: [FieldValue] = []
            while !list.isAtEnd {
                items.append(try decodeInferring(from: list.superDecoder()))
            }
            guard let first = items.first else { return .list([]) }
            let elementType = first.naturalType
            // Mixed integer and fractional numbers form a DOUBLE list.
            let target: FieldType = items.contains { $0.naturalType == .double } && elementType == .int64 ? .double : elementType
            let converted = items.compactMap { $0.converted(to: target) }
            guard converted.count == items.count else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "list elements have different types"))
            }
            return .list(converted)
        }
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) { return .string(text) }
        if let flag = try? container.decode(Bool.self) { return .int64(flag ? 1 : 0) }
        if let number = try? container.decode(Int64.self) { return .int64(number) }
        if let number = try? container.decode(Double.self) { return .double(number) }
        if let location = try? container.decode(Location.self) { return .location(location) }
        if let reference = try? container.decode(Reference.self) { return .reference(reference) }
        if let asset = try? container.decode(AssetValue.self), asset != AssetValue() { return .asset(asset) }
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unsupported field value"))
    }

    /// Encodes a value in place (no `superEncoder`, which costs an encoder object per field).
    struct Encoding: Encodable {
        let value: FieldValue
        let numbersAsStrings: Bool

        func encode(to encoder: any Encoder) throws {
            if case .list(let items) = value {
                var container = encoder.unkeyedContainer()
                for item in items {
                    try container.encode(Encoding(value: item, numbersAsStrings: numbersAsStrings))
                }
                return
            }
            var container = encoder.singleValueContainer()
            switch value {
            case .string(let text): try container.encode(text)
            case .int64(let number), .timestamp(let number):
                if numbersAsStrings { try container.encode(String(number)) } else { try container.encode(number) }
            case .double(let number):
                if numbersAsStrings { try container.encode(String(number)) } else { try container.encode(number) }
            case .bytes(let data): try container.encode(data.base64EncodedString())
            case .location(let location): try container.encode(location)
            case .reference(let reference): try container.encode(reference)
            case .asset(let asset): try container.encode(asset)
            case .list: break
            }
        }
    }
}
