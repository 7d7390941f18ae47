/// Names CloudKit gives share records.
public enum ShareNames {
    /// The record type of every share (`CKRecordTypeShare`). Requests may spell it `cloudKit.share`.
    public static let recordType = "cloudkit.share"
    /// The record name of a zone-wide share (`CKRecordNameZoneWideShare`).
    public static let zoneWideShare = "cloudkit.zoneshare"
    /// The share's title field (`CKShare.SystemFieldKey.title`).
    public static let titleField = "cloudkit.title"

    /// Whether a record type names a share (case-insensitively, as clients spell it both ways).
    public static func isShareType(_ recordType: String?) -> Bool {
        recordType?.lowercased() == lowercasedRecordType
    }

    private static let lowercasedRecordType = recordType.lowercased()
}

/// A participant's role in a share (`type` on the wire).
public enum ParticipantRole: String, Sendable, Hashable, Codable, CaseIterable {
    /// Created the share; may change everything.
    case owner = "OWNER"
    /// May add and remove participants and change their permissions.
    case administrator = "ADMINISTRATOR"
    /// Invited by the owner or an administrator.
    case user = "USER"
    /// Joined through the URL of a public share.
    case publicUser = "PUBLIC_USER"
    case unknown = "UNKNOWN"

    /// Whether the role may manage participants.
    public var managesParticipants: Bool { self == .owner || self == .administrator }
}

/// What a participant (or anyone, for `publicPermission`) may do with the shared records.
public enum SharePermission: String, Sendable, Hashable, Codable, CaseIterable {
    case none = "NONE"
    case readOnly = "READ_ONLY"
    case readWrite = "READ_WRITE"
    case unknown = "UNKNOWN"

    /// Whether the permission lets its holder read the shared records.
    public var mayRead: Bool { self == .readOnly || self == .readWrite }
}

/// Where a participant stands with the invitation.
public enum ParticipantAcceptanceStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case invited = "INVITED"
    case pending = "PENDING"
    case accepted = "ACCEPTED"
    case removed = "REMOVED"
    case unknown = "UNKNOWN"
}

/// A participant dictionary of a share record.
///
/// To invite, a client sends `userIdentity.lookupInfo` (email address or user record name) with
/// `type` and `permission`; the server answers with `participantId`, the identity it resolved
/// and the `acceptanceStatus`.
public struct ShareParticipant: Sendable, Hashable, Codable {
    public var participantId: String?
    public var userIdentity: UserIdentity?
    public var type: ParticipantRole?
    public var permission: SharePermission?
    public var acceptanceStatus: ParticipantAcceptanceStatus?

    public init(
        participantId: String? = nil, userIdentity: UserIdentity? = nil, type: ParticipantRole? = nil,
        permission: SharePermission? = nil, acceptanceStatus: ParticipantAcceptanceStatus? = nil
    ) {
        self.participantId = participantId
        self.userIdentity = userIdentity
        self.type = type
        self.permission = permission
        self.acceptanceStatus = acceptanceStatus
    }

    /// An invitation of the account with this email address.
    public static func invite(email: String, permission: SharePermission, type: ParticipantRole = .user) -> ShareParticipant {
        ShareParticipant(
            userIdentity: UserIdentity(lookupInfo: LookupInfo(emailAddress: email)), type: type, permission: permission
        )
    }
}
