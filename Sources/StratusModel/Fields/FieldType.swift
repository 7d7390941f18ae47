/// The type tag of a record field on the wire (`"type": "STRING"`), as CloudKit Web Services spells it.
///
/// Decoding is liberal: `NUMBER_INT64` is read as ``int64``; encoding always emits Apple's tag.
public enum FieldType: String, Sendable, Hashable, CaseIterable, Codable {
    case string = "STRING"
    case int64 = "INT64"
    case double = "DOUBLE"
    case timestamp = "TIMESTAMP"
    case bytes = "BYTES"
    case encryptedBytes = "ENCRYPTED_BYTES"
    case location = "LOCATION"
    case reference = "REFERENCE"
    case asset = "ASSET"
    case assetID = "ASSETID"
    case stringList = "STRING_LIST"
    case int64List = "INT64_LIST"
    case doubleList = "DOUBLE_LIST"
    case timestampList = "TIMESTAMP_LIST"
    case bytesList = "BYTES_LIST"
    case locationList = "LOCATION_LIST"
    case referenceList = "REFERENCE_LIST"
    case assetList = "ASSET_LIST"
    case assetIDList = "ASSETID_LIST"

    /// Reads a tag, accepting the variants seen from clients in the wild.
    public init?(wireTag: String) {
        switch wireTag {
        case "NUMBER_INT64": self = .int64
        case "NUMBER_DOUBLE": self = .double
        case "NUMBER_INT64_LIST": self = .int64List
        default: self.init(rawValue: wireTag)
        }
    }

    public init(from decoder: any Decoder) throws {
        let tag = try decoder.singleValueContainer().decode(String.self)
        guard let type = FieldType(wireTag: tag) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown field type '\(tag)'")
            )
        }
        self = type
    }

    /// Whether values of this type are JSON arrays.
    public var isList: Bool { elementType != nil }

    /// The element type of a list type; `nil` for scalar types.
    public var elementType: FieldType? {
        switch self {
        case .stringList: .string
        case .int64List: .int64
        case .doubleList: .double
        case .timestampList: .timestamp
        case .bytesList: .bytes
        case .locationList: .location
        case .referenceList: .reference
        case .assetList: .asset
        case .assetIDList: .assetID
        default: nil
        }
    }

    /// Whether values of this type hold assets (`ASSET`, `ASSETID` and their lists).
    public var isAsset: Bool {
        switch self {
        case .asset, .assetID, .assetList, .assetIDList: true
        default: false
        }
    }

    /// The list type whose elements have this type; `nil` for list types and encrypted bytes.
    public var listType: FieldType? {
        FieldType.allCases.first { $0.elementType == self }
    }
}
