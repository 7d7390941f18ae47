import Foundation

/// One record field on the wire: `{ "value": …, "type": "…" }`.
///
/// `type` is optional in requests: when it is missing the type is inferred from the JSON value
/// (``isTypeInferred`` is then `true`) and the server resolves it against the record type's schema.
/// Encoding always writes Apple's tag.
public struct Field: Sendable, Hashable {
    public var value: FieldValue
    public var type: FieldType
    /// `true` when the request gave no `type` and it was inferred from the value's JSON shape.
    public var isTypeInferred: Bool
    /// A TIMESTAMP field's dates to the last bit (a Stratus extension, ``WireExtensions/exactDates``):
    /// each date's seconds since 2001-01-01, one per timestamp of the value, in order. CKWS's
    /// milliseconds stay the value; a client asking for these uses one only where it rounds to
    /// them (a CKWS client that rewrites the field drops them).
    public var exactDates: [Double]?

    public init(_ value: FieldValue, type: FieldType? = nil) {
        self.value = value
        self.type = type ?? value.naturalType
        self.isTypeInferred = false
    }

    /// Whether `exactDates` fits this field: one for each timestamp it holds.
    public static func exactDatesFit(_ dates: [Double], value: FieldValue, type: FieldType) -> Bool {
        switch (type, value) {
        case (.timestamp, .timestamp): dates.count == 1 && dates.allSatisfy(\.isFinite)
        case (.timestampList, .list(let items)): dates.count == items.count && dates.allSatisfy(\.isFinite)
        default: false
        }
    }

    public static func string(_ text: String) -> Field { Field(.string(text), type: .string) }
    public static func int64(_ number: Int64) -> Field { Field(.int64(number), type: .int64) }
    public static func double(_ number: Double) -> Field { Field(.double(number), type: .double) }
    public static func timestamp(milliseconds: Int64) -> Field { Field(.timestamp(milliseconds), type: .timestamp) }
    public static func bytes(_ data: Data) -> Field { Field(.bytes(data), type: .bytes) }

    /// This field as `type`, converting a bare JSON value where CloudKit would; `nil` when it cannot.
    public func resolved(as type: FieldType) -> Field? {
        if type == self.type { return self }
        guard let converted = value.converted(to: type) else { return nil }
        return Field(converted, type: type)
    }
}

extension CodingUserInfoKey {
    /// Set to `true` in an encoder's `userInfo` to render number field values as strings
    /// (the `numbersAsStrings` request flag).
    public static let numbersAsStrings = CodingUserInfoKey(rawValue: "stratus.numbersAsStrings")!
}

extension Field: Codable {
    private enum CodingKeys: String, CodingKey { case value, type, exactDates }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if let type = try container.decodeIfPresent(FieldType.self, forKey: .type) {
            self.value = try Field.decodeValue(as: type, in: container)
            self.type = type
            self.isTypeInferred = false
        } else {
            // The common untyped value, a string, without a nested decoder.
            let value =
                try (try? container.decode(String.self, forKey: .value)).map(FieldValue.string)
                ?? FieldValue.decodeInferring(from: container.superDecoder(forKey: .value))
            self.value = value
            self.type = value.naturalType
            self.isTypeInferred = true
        }
        if let dates = try container.decodeIfPresent([Double].self, forKey: .exactDates) {
            guard Field.exactDatesFit(dates, value: value, type: type) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .exactDates, in: container, debugDescription: "exactDates must hold one date for each timestamp of a TIMESTAMP field")
            }
            self.exactDates = dates
        }
    }

    /// Decodes the value of a typed field. Common scalar types read straight from the keyed
    /// container (a nested decoder costs an object per field); lists, numbers sent as strings
    /// and the rest take the general path.
    private static func decodeValue(as type: FieldType, in container: KeyedDecodingContainer<CodingKeys>) throws -> FieldValue {
        switch type {
        case .string:
            if let text = try? container.decode(String.self, forKey: .value) { return .string(text) }
        case .int64:
            if let number = try? container.decode(Int64.self, forKey: .value) { return .int64(number) }
        case .timestamp:
            if let number = try? container.decode(Int64.self, forKey: .value) { return .timestamp(number) }
        case .double:
            if let number = try? container.decode(Double.self, forKey: .value) { return .double(number) }
        case .bytes, .encryptedBytes:
            if let text = try? container.decode(String.self, forKey: .value), let data = Data(base64Encoded: text) {
                return .bytes(data)
            }
        default:
            break
        }
        return try FieldValue.decode(as: type, from: container.superDecoder(forKey: .value))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let asStrings = encoder.userInfo[.numbersAsStrings] as? Bool ?? false
        // The type first: a reader that sees it before the value can read the value at once.
        try container.encode(type, forKey: .type)
        try container.encode(FieldValue.Encoding(value: value, numbersAsStrings: asStrings), forKey: .value)
        if let exactDates, encoder.wireExtensions.contains(.exactDates) {
            try container.encode(exactDates, forKey: .exactDates)
        }
    }
}
