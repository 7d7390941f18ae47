/// `POST /stratus/v1/admin/zones/reset`: a zone leaves its owner's private database as it would
/// on a device: deleted by the app, purged from Settings, or lost to an encrypted-data reset.
/// Its records go; `changes/database` reports it deleted with the reason.
public struct ZoneResetRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var userRecordName: String
    public var zoneName: String
    public var reason: ZoneDeletionReason

    public init(container: String, environment: ContainerEnvironment, userRecordName: String, zoneName: String, reason: ZoneDeletionReason) {
        self.container = container
        self.environment = environment
        self.userRecordName = userRecordName
        self.zoneName = zoneName
        self.reason = reason
    }
}

/// The answer to ``ZoneResetRequest``.
public struct ZoneResetResponse: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    public var deleted: Bool
    public var deletionReason: ZoneDeletionReason

    public init(zoneID: ZoneID, deletionReason: ZoneDeletionReason) {
        self.zoneID = zoneID
        self.deleted = true
        self.deletionReason = deletionReason
    }
}

/// `POST /stratus/v1/admin/web-auth-tokens/revoke`: the token stops working at once; requests
/// carrying it answer `AUTHENTICATION_REQUIRED` (421), as after a sign-out elsewhere.
public struct RevokeWebAuthTokenRequest: Sendable, Hashable, Codable {
    public var webAuthToken: String
    public init(webAuthToken: String) { self.webAuthToken = webAuthToken }
}

/// The answer to ``RevokeWebAuthTokenRequest``.
public struct RevokeWebAuthTokenResponse: Sendable, Hashable, Codable {
    public var revoked: Bool
    public var userRecordName: String
    public init(revoked: Bool, userRecordName: String) {
        self.revoked = revoked
        self.userRecordName = userRecordName
    }
}

/// `POST /stratus/v1/admin/quotas`: an account's iCloud storage quota in one container
/// environment, counted over the records of its private database (its shared zones included,
/// whoever writes them). A write that would go over it fails with `QUOTA_EXCEEDED`. `bytes: null`
/// lifts the quota.
public struct SetQuotaRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var userRecordName: String
    public var bytes: Int64?

    public init(container: String, environment: ContainerEnvironment, userRecordName: String, bytes: Int64?) {
        self.container = container
        self.environment = environment
        self.userRecordName = userRecordName
        self.bytes = bytes
    }
}

/// An account's quota and what it uses now.
public struct QuotaResponse: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var bytes: Int64?
    public var usedBytes: Int64

    public init(userRecordName: String, bytes: Int64?, usedBytes: Int64) {
        self.userRecordName = userRecordName
        self.bytes = bytes
        self.usedBytes = usedBytes
    }
}
