/// The body of a failed request (any non-200): `{ uuid, serverErrorCode, reason, retryAfter?, redirectURL? }`.
///
/// `nativeErrorCode` is a Stratus addition: the native `CKError.Code` number where the web code
/// is ambiguous (21 = change token expired, with `BAD_REQUEST`; 28 = the user deleted the zone,
/// with `ZONE_NOT_FOUND`), written only for a client that asks (``WireExtensions/nativeErrorCodes``).
/// `userDidResetEncryptedData` (also a Stratus addition, only ever `true`, for every client: no
/// Apple client reads the name) marks a `ZONE_NOT_FOUND` whose zone went in an encrypted-data
/// reset — native CloudKit's `CKErrorUserDidResetEncryptedDataKey`.
public struct ErrorBody: Sendable, Hashable, Codable, Error {
    public var uuid: String
    public var serverErrorCode: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?
    public var nativeErrorCode: Int?
    public var userDidResetEncryptedData: Bool?

    public init(
        uuid: String, serverErrorCode: ServerErrorCode, reason: String,
        retryAfter: Int? = nil, redirectURL: String? = nil, nativeErrorCode: Int? = nil, userDidResetEncryptedData: Bool? = nil
    ) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
        self.nativeErrorCode = nativeErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }

    enum CodingKeys: String, CodingKey {
        case uuid, serverErrorCode, reason, retryAfter, redirectURL, nativeErrorCode, userDidResetEncryptedData
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encode(serverErrorCode, forKey: .serverErrorCode)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        try container.encodeIfPresent(redirectURL, forKey: .redirectURL)
        try container.encodeIfPresent(encoder.wireExtensions.nativeErrorCode(nativeErrorCode), forKey: .nativeErrorCode)
        try container.encodeIfPresent(userDidResetEncryptedData, forKey: .userDidResetEncryptedData)
    }
}

/// A per-record error inside a 200 response.
///
/// For `CONFLICT` and `EXISTS`, `serverRecord` (a Stratus addition, written only for a client
/// that asks: ``WireExtensions/serverRecords``) carries the server's current record, so a client
/// can merge without another round trip.
public struct RecordError: Sendable, Hashable, Codable, Error {
    public var recordName: String?
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String?
    public var redirectURL: String?
    public var serverRecord: Record?
    /// The native CKError code where the web code is ambiguous (27: limit exceeded; 28: the
    /// user deleted the zone; 30: already shared).
    public var nativeErrorCode: Int?
    /// `true` on a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset (see ``ErrorBody``).
    public var userDidResetEncryptedData: Bool?

    public init(
        recordName: String?, serverErrorCode: ServerErrorCode, reason: String,
        uuid: String? = nil, serverRecord: Record? = nil, retryAfter: Int? = nil, nativeErrorCode: Int? = nil,
        userDidResetEncryptedData: Bool? = nil
    ) {
        self.recordName = recordName
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
        self.serverRecord = serverRecord
        self.retryAfter = retryAfter
        self.nativeErrorCode = nativeErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }

    enum CodingKeys: String, CodingKey {
        case recordName, reason, serverErrorCode, retryAfter, uuid, redirectURL, serverRecord, nativeErrorCode, userDidResetEncryptedData
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(recordName, forKey: .recordName)
        try container.encode(reason, forKey: .reason)
        try container.encode(serverErrorCode, forKey: .serverErrorCode)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        try container.encodeIfPresent(uuid, forKey: .uuid)
        try container.encodeIfPresent(redirectURL, forKey: .redirectURL)
        if encoder.wireExtensions.contains(.serverRecords) { try container.encodeIfPresent(serverRecord, forKey: .serverRecord) }
        try container.encodeIfPresent(encoder.wireExtensions.nativeErrorCode(nativeErrorCode), forKey: .nativeErrorCode)
        try container.encodeIfPresent(userDidResetEncryptedData, forKey: .userDidResetEncryptedData)
    }
}

/// A per-zone error inside a 200 response.
public struct ZoneError: Sendable, Hashable, Codable, Error {
    public var zoneID: ZoneID
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String?
    public var redirectURL: String?
    public var nativeErrorCode: Int?
    /// `true` on a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset (see ``ErrorBody``).
    public var userDidResetEncryptedData: Bool?

    public init(
        zoneID: ZoneID, serverErrorCode: ServerErrorCode, reason: String, uuid: String? = nil, nativeErrorCode: Int? = nil,
        userDidResetEncryptedData: Bool? = nil
    ) {
        self.zoneID = zoneID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
        self.nativeErrorCode = nativeErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }

    enum CodingKeys: String, CodingKey {
        case zoneID, reason, serverErrorCode, retryAfter, uuid, redirectURL, nativeErrorCode, userDidResetEncryptedData
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneID, forKey: .zoneID)
        try container.encode(reason, forKey: .reason)
        try container.encode(serverErrorCode, forKey: .serverErrorCode)
        try container.encodeIfPresent(retryAfter, forKey: .retryAfter)
        try container.encodeIfPresent(uuid, forKey: .uuid)
        try container.encodeIfPresent(redirectURL, forKey: .redirectURL)
        try container.encodeIfPresent(encoder.wireExtensions.nativeErrorCode(nativeErrorCode), forKey: .nativeErrorCode)
        try container.encodeIfPresent(userDidResetEncryptedData, forKey: .userDidResetEncryptedData)
    }
}

extension WireExtensions {
    /// `code` when these extensions ask for native error codes, else `nil` (not written).
    func nativeErrorCode(_ code: Int?) -> Int? {
        contains(.nativeErrorCodes) ? code : nil
    }
}
