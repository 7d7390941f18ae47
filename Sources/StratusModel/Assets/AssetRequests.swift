/// `assets/upload`: upload URLs for asset fields of records in one zone (up to 200 tokens).
public struct AssetUploadRequest: Sendable, Hashable, Codable {
    /// One asset to upload: the field it is for, and the record (a random name when not given).
    public struct Token: Sendable, Hashable, Codable {
        public var recordName: String?
        public var recordType: String
        public var fieldName: String

        public init(recordName: String? = nil, recordType: String, fieldName: String) {
            self.recordName = recordName
            self.recordType = recordType
            self.fieldName = fieldName
        }
    }

    public var zoneID: ZoneID?
    public var tokens: [Token]

    public init(zoneID: ZoneID? = nil, tokens: [Token]) {
        self.zoneID = zoneID
        self.tokens = tokens
    }
}

/// The answer of `assets/upload`: one upload URL per token, in order.
public struct AssetUploadResponse: Sendable, Hashable, Codable {
    /// Where to `POST` the bytes of one asset (valid for a limited time, for one upload).
    public struct Token: Sendable, Hashable, Codable {
        public var recordName: String
        public var fieldName: String
        public var url: String

        public init(recordName: String, fieldName: String, url: String) {
            self.recordName = recordName
            self.fieldName = fieldName
            self.url = url
        }
    }

    public var tokens: [Token]

    public init(tokens: [Token]) { self.tokens = tokens }
}

/// The answer to the bytes `POST`ed to an upload URL: the asset dictionary to save in a record.
public struct AssetUploadResult: Sendable, Hashable, Codable {
    public var singleFile: AssetValue

    public init(singleFile: AssetValue) { self.singleFile = singleFile }
}

/// `assets/rereference`: asset values of existing records, usable to set the same assets on other records.
public struct RereferenceAssetsRequest: Sendable, Hashable, Codable {
    /// An asset field of a record of the zone.
    public struct Asset: Sendable, Hashable, Codable {
        public var recordName: String
        public var fieldName: String

        public init(recordName: String, fieldName: String) {
            self.recordName = recordName
            self.fieldName = fieldName
        }
    }

    public var zoneID: ZoneID?
    public var assets: [Asset]

    public init(zoneID: ZoneID? = nil, assets: [Asset]) {
        self.zoneID = zoneID
        self.assets = assets
    }
}

/// One answer of `assets/rereference`: the field's value (`ASSETID`, or `ASSETID_LIST`), each
/// asset carrying a fresh receipt.
public struct RereferencedAsset: Sendable, Hashable, Codable {
    public var recordName: String
    public var fieldName: String
    public var field: Field

    public init(recordName: String, fieldName: String, field: Field) {
        self.recordName = recordName
        self.fieldName = fieldName
        self.field = field
    }

    private enum CodingKeys: String, CodingKey { case recordName, fieldName }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.recordName = try container.decode(String.self, forKey: .recordName)
        self.fieldName = try container.decode(String.self, forKey: .fieldName)
        self.field = try Field(from: decoder)
    }

    /// `{"recordName", "fieldName", "value", "type"}`: the field's keys beside the names.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(recordName, forKey: .recordName)
        try container.encode(fieldName, forKey: .fieldName)
        try field.encode(to: encoder)
    }
}

/// The answer of `assets/rereference`: one entry per requested asset, or its error.
public struct RereferenceAssetsResponse: Sendable, Hashable, Codable {
    public var assets: [ItemResult<RereferencedAsset, RecordError>]

    public init(assets: [ItemResult<RereferencedAsset, RecordError>]) { self.assets = assets }
}

/// `POST /stratus/v1/admin/assets/collect`: collect now, treating blobs unreferenced for at
/// least `olderThanSeconds` as garbage.
public struct CollectAssetsRequest: Sendable, Hashable, Codable {
    public var olderThanSeconds: Int64

    public init(olderThanSeconds: Int64) { self.olderThanSeconds = olderThanSeconds }
}

/// What a collection did: blobs removed, blobs kept.
public struct CollectAssetsResponse: Sendable, Hashable, Codable {
    public var removed: Int
    public var kept: Int

    public init(removed: Int, kept: Int) {
        self.removed = removed
        self.kept = kept
    }
}
