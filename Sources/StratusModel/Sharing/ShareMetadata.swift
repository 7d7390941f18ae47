/// One short GUID of a records/resolve or records/accept request.
public struct ShortGUIDRequest: Sendable, Hashable, Codable {
    public var value: String
    /// Whether the answer carries the root record (ignored for zone-wide shares).
    public var shouldFetchRootRecord: Bool?
    /// Limits the root record's fields.
    public var rootRecordDesiredKeys: [String]?

    public init(value: String, shouldFetchRootRecord: Bool? = nil, rootRecordDesiredKeys: [String]? = nil) {
        self.value = value
        self.shouldFetchRootRecord = shouldFetchRootRecord
        self.rootRecordDesiredKeys = rootRecordDesiredKeys
    }
}

/// `POST …/records/resolve` and `POST …/records/accept`.
public struct ShortGUIDsRequest: Sendable, Hashable, Codable {
    public var shortGUIDs: [ShortGUIDRequest]

    public init(shortGUIDs: [ShortGUIDRequest]) {
        self.shortGUIDs = shortGUIDs
    }
}

/// The short GUID as an answer echoes it.
public struct ShortGUIDEcho: Sendable, Hashable, Codable {
    public var value: String
    public var shouldFetchRootRecord: Bool?

    public init(value: String, shouldFetchRootRecord: Bool? = nil) {
        self.value = value
        self.shouldFetchRootRecord = shouldFetchRootRecord
    }
}

/// What a share URL leads to (`CKShare.Metadata`): the share, where it lives, and the caller's
/// own role, permission and status in it.
public struct ShareMetadata: Sendable, Hashable, Codable {
    public var shortGUID: ShortGUIDEcho
    public var containerIdentifier: String
    public var environment: ContainerEnvironment
    /// `PRIVATE` when the caller owns the share, `SHARED` otherwise.
    public var databaseScope: String
    /// The owner's zone (`ownerRecordName` = the owner).
    public var zoneID: ZoneID
    public var share: Record
    /// The hierarchy's root; absent for a zone-wide share.
    public var rootRecordName: String?
    public var rootRecord: Record?
    public var ancestorRecords: [Record]
    public var ownerIdentity: UserIdentity
    public var participantType: ParticipantRole
    public var participantRole: ParticipantRole
    public var participantPermission: SharePermission
    public var participantStatus: ParticipantAcceptanceStatus
    public var potentialMatchList: [ShareParticipant]

    public init(
        shortGUID: ShortGUIDEcho, containerIdentifier: String, environment: ContainerEnvironment, databaseScope: String,
        zoneID: ZoneID, share: Record, rootRecordName: String?, rootRecord: Record?, ownerIdentity: UserIdentity,
        participantRole: ParticipantRole, participantPermission: SharePermission, participantStatus: ParticipantAcceptanceStatus
    ) {
        self.shortGUID = shortGUID
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.databaseScope = databaseScope
        self.zoneID = zoneID
        self.share = share
        self.rootRecordName = rootRecordName
        self.rootRecord = rootRecord
        self.ancestorRecords = []
        self.ownerIdentity = ownerIdentity
        self.participantType = participantRole
        self.participantRole = participantRole
        self.participantPermission = participantPermission
        self.participantStatus = participantStatus
        self.potentialMatchList = []
    }
}

/// The error CloudKit puts in place of a short GUID it could not resolve or accept.
public struct ShortGUIDError: Error, Sendable, Hashable, Codable {
    public var shortGUID: ShortGUIDEcho?
    public var serverErrorCode: ServerErrorCode
    public var reason: String
    public var uuid: String?

    public init(shortGUID: ShortGUIDEcho?, serverErrorCode: ServerErrorCode, reason: String, uuid: String? = nil) {
        self.shortGUID = shortGUID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
    }
}

/// An entry of a records/resolve or records/accept answer.
public typealias ShareMetadataResult = ItemResult<ShareMetadata, ShortGUIDError>

/// The answer of records/resolve and records/accept: one entry per short GUID, in order.
public struct ShareMetadataResponse: Sendable, Hashable, Codable {
    public var results: [ShareMetadataResult]

    public init(results: [ShareMetadataResult]) {
        self.results = results
    }
}
