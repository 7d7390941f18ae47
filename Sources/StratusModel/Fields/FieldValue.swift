import Foundation

/// The value of one record field, typed as CloudKit types it.
///
/// A list holds its elements as `FieldValue`s; the list's element type is carried by the
/// enclosing ``Field``'s ``FieldType``, so an empty list still knows what it is.
public indirect enum FieldValue: Sendable, Hashable {
    case string(String)
    case int64(Int64)
    case double(Double)
    /// Milliseconds since 1970-01-01.
    case timestamp(Int64)
    case bytes(Data)
    case location(Location)
    case reference(Reference)
    case asset(AssetValue)
    case list([FieldValue])

    /// The bytes of data this value holds (string UTF-8, raw bytes, 8 per number): what counts
    /// against the per-record size limit, computed without encoding anything.
    public var dataSize: Int {
        switch self {
        case .string(let text): text.utf8.count
        case .int64, .double, .timestamp: 8
        case .bytes(let data): data.count
        case .location: 64
        case .reference(let reference): reference.recordName.utf8.count + (reference.zoneID?.zoneName.utf8.count ?? 0) + 16
        case .asset(let asset): (asset.fileChecksum?.utf8.count ?? 0) + (asset.receipt?.utf8.count ?? 0) + (asset.downloadURL?.utf8.count ?? 0) + 16
        case .list(let items): items.reduce(0) { $0 + $1.dataSize }
        }
    }

    /// The scalar type this value has when it stands alone (the natural tag, before schema resolution).
    var naturalType: FieldType {
        switch self {
        case .string: .string
        case .int64: .int64
        case .double: .double
        case .timestamp: .timestamp
        case .bytes: .bytes
        case .location: .location
        case .reference: .reference
        case .asset: .assetID
        case .list(let items): items.first?.naturalType.listType ?? .stringList
        }
    }

    /// Converts this value to `type` where CloudKit would accept the bare JSON for it
    /// (an integer for a DOUBLE or TIMESTAMP, a base64 string for BYTES); `nil` when it cannot.
    public func converted(to type: FieldType) -> FieldValue? {
        if let element = type.elementType {
            guard case .list(let items) = self else { return nil }
            var converted: [FieldValue] = []
            converted.reserveCapacity(items.count)
            for item in items {
                guard let value = item.converted(to: element) else { return nil }
                converted.append(value)
            }
            return .list(converted)
        }
        switch (self, type) {
        case (.string, .string), (.int64, .int64), (.double, .double), (.timestamp, .timestamp),
            (.bytes, .bytes), (.bytes, .encryptedBytes), (.location, .location), (.reference, .reference),
            (.asset, .asset), (.asset, .assetID):
            return self
        case (.int64(let number), .double): return .double(Double(number))
        case (.int64(let number), .timestamp): return .timestamp(number)
        case (.timestamp(let number), .int64): return .int64(number)
        case (.double(let number), .int64) where number.rounded() == number && abs(number) < 9.2e18:
            return .int64(Int64(number))
        case (.double(let number), .timestamp) where number.rounded() == number && abs(number) < 9.2e18:
            return .timestamp(Int64(number))
        case (.string(let text), .bytes), (.string(let text), .encryptedBytes):
            return Data(base64Encoded: text).map(FieldValue.bytes)
        case (.string(let text), .int64): return FieldValue.integer(fromText: text).map(FieldValue.int64)
        case (.string(let text), .timestamp): return FieldValue.integer(fromText: text).map(FieldValue.timestamp)
        case (.string(let text), .double): return FieldValue.decimal(fromText: text).map(FieldValue.double)
        default: return nil
        }
    }
}
