import Foundation

/// An asset field value: Apple's Asset dictionary.
///
/// `fileChecksum` names the bytes (Stratus: the SHA-256 of the file, hex); `receipt` is what an
/// upload answered, sent once to attach the bytes to a record; `downloadURL` is only in answers.
/// Stratus does not encrypt assets: `wrappingKey` and `referenceChecksum` are opaque values kept
/// so clients that echo them round-trip.
public struct AssetValue: Sendable, Hashable, Codable {
    public var fileChecksum: String?
    public var size: Int64?
    public var referenceChecksum: String?
    public var wrappingKey: String?
    public var receipt: String?
    public var downloadURL: String?

    public init(
        fileChecksum: String? = nil, size: Int64? = nil, referenceChecksum: String? = nil, wrappingKey: String? = nil,
        receipt: String? = nil, downloadURL: String? = nil
    ) {
        self.fileChecksum = fileChecksum
        self.size = size
        self.referenceChecksum = referenceChecksum
        self.wrappingKey = wrappingKey
        self.receipt = receipt
        self.downloadURL = downloadURL
    }

    /// The value as a record keeps it: no receipt, no download URL.
    public var stored: AssetValue {
        var value = self
        value.receipt = nil
        value.downloadURL = nil
        return value
    }
}

extension FieldValue {
    /// Every asset value in this value (itself, or a list's elements).
    public var assets: [AssetValue] {
        switch self {
        case .asset(let asset): [asset]
        case .list(let items): items.flatMap(\.assets)
        default: []
        }
    }

    /// This value with `transform` applied to each asset in it.
    public func mappingAssets(_ transform: (AssetValue) throws -> AssetValue) rethrows -> FieldValue {
        switch self {
        case .asset(let asset): .asset(try transform(asset))
        case .list(let items): .list(try items.map { try $0.mappingAssets(transform) })
        default: self
        }
    }
}

extension Dictionary where Key == String, Value == Field {
    /// The checksums of every asset the fields hold.
    public var assetChecksums: Set<String> {
        var checksums: Set<String> = []
        for field in values where field.type.isAsset {
            for asset in field.value.assets { if let checksum = asset.fileChecksum { checksums.insert(checksum) } }
        }
        return checksums
    }
}

extension AssetValue {
    /// The placeholder a `downloadURL` ends in where a file name goes (as Apple's do): clients fill
    /// it in before fetching; the server serves any name.
    public static let fileNamePlaceholder = "${f}"

    /// `downloadURL` with its `${f}` placeholder filled in with `fileName`, percent-encoded as one
    /// path segment (an empty name becomes `asset`); a URL without the placeholder as it is.
    public static func fetchURL(_ downloadURL: String, fileName: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove("/")
        let segment = fileName.addingPercentEncoding(withAllowedCharacters: allowed) ?? "asset"
        return downloadURL.replacingOccurrences(of: fileNamePlaceholder, with: segment.isEmpty ? "asset" : segment)
    }
}
