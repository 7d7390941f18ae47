/// The body of a failed request (any non-200): `{ uuid, serverErrorCode, reason, retryAfter?, redirectURL? }`.
///
/// `ckErrorCode` is a Stratus addition: the native `CKError.Code` number, sent only where the
/// web code is ambiguous (21 = change token expired, with `BAD_REQUEST`; 28 = the user deleted
/// the zone, with `ZONE_NOT_FOUND`). `userDidResetEncryptedData` (also a Stratus addition, sent
/// only as `true`) marks a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset — native
/// CloudKit's `CKErrorUserDidResetEncryptedDataKey`.
public struct ErrorBody: Sendable, Hashable, Codable, Error {
    public var uuid: String
    public var serverErrorCode: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?
    public var ckErrorCode: Int?
    public var userDidResetEncryptedData: Bool?

    public init(
        uuid: String, serverErrorCode: ServerErrorCode, reason: String,
        retryAfter: Int? = nil, redirectURL: String? = nil, ckErrorCode: Int? = nil, userDidResetEncryptedData: Bool? = nil
    ) {
        self.uuid = uuid
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
        self.ckErrorCode = ckErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }
}

/// A per-record error inside a 200 response.
///
/// For `CONFLICT` and `EXISTS`, `serverRecord` (a Stratus addition) carries the server's current
/// record, so a client can merge without another round trip.
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
    public var ckErrorCode: Int?
    /// `true` on a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset (see ``ErrorBody``).
    public var userDidResetEncryptedData: Bool?

    public init(
        recordName: String?, serverErrorCode: ServerErrorCode, reason: String,
        uuid: String? = nil, serverRecord: Record? = nil, retryAfter: Int? = nil, ckErrorCode: Int? = nil,
        userDidResetEncryptedData: Bool? = nil
    ) {
        self.recordName = recordName
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
        self.serverRecord = serverRecord
        self.retryAfter = retryAfter
        self.ckErrorCode = ckErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
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
    public var ckErrorCode: Int?
    /// `true` on a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset (see ``ErrorBody``).
    public var userDidResetEncryptedData: Bool?

    public init(
        zoneID: ZoneID, serverErrorCode: ServerErrorCode, reason: String, uuid: String? = nil, ckErrorCode: Int? = nil,
        userDidResetEncryptedData: Bool? = nil
    ) {
        self.zoneID = zoneID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
        self.ckErrorCode = ckErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }
}
