import Foundation
import Synchronization
import StratusModel

extension CKShare {
    /// A participant's role in a share.
    public enum ParticipantRole: Int, Sendable, Hashable {
        case unknown = 0
        case owner = 1
        case administrator = 2
        case privateUser = 3
        case publicUser = 4

        init(wire: StratusModel.ParticipantRole?) {
            self =
                switch wire {
                case .owner?: .owner
                case .administrator?: .administrator
                case .user?: .privateUser
                case .publicUser?: .publicUser
                default: .unknown
                }
        }

        var wire: StratusModel.ParticipantRole {
            switch self {
            case .owner: .owner
            case .administrator: .administrator
            case .privateUser: .user
            case .publicUser: .publicUser
            case .unknown: .unknown
            }
        }
    }

    /// What a participant (or anyone with the URL) may do with the shared records.
    public enum ParticipantPermission: Int, Sendable, Hashable {
        case unknown = 0
        case none = 1
        case readOnly = 2
        case readWrite = 3

        init(wire: SharePermission?) {
            self =
                switch wire {
                case .none?: .none
                case .readOnly?: .readOnly
                case .readWrite?: .readWrite
                default: .unknown
                }
        }

        var wire: SharePermission {
            switch self {
            case .none: .none
            case .readOnly: .readOnly
            case .readWrite: .readWrite
            case .unknown: .unknown
            }
        }
    }

    /// Whether a participant accepted the share.
    public enum ParticipantAcceptanceStatus: Int, Sendable, Hashable {
        case unknown = 0
        case pending = 1
        case accepted = 2
        case removed = 3

        init(wire: StratusModel.ParticipantAcceptanceStatus?) {
            self =
                switch wire {
                case .invited?, .pending?: .pending
                case .accepted?: .accepted
                case .removed?: .removed
                default: .unknown
                }
        }
    }

    /// One person a share is shared with (or its owner).
    public typealias Participant = CKShareParticipant
}

/// A share participant (`CKShare.Participant`; top-level, as its Objective-C name).
public final class CKShareParticipant: NSObject, NSSecureCoding, Sendable {
    /// A participant's identifier (`CKShare.Participant.ID`).
    public typealias ID = String

    public let userIdentity: CKUserIdentity
    /// This participant's identifier, the same in every copy of the share that lists them.
    public let participantID: ID
    private let standing: Mutex<Standing>

    /// What an owner may change about a participant, and what the server says of them.
    private struct Standing {
        var role: CKShare.ParticipantRole
        var permission: CKShare.ParticipantPermission
        var acceptanceStatus: CKShare.ParticipantAcceptanceStatus
        var isCurrentUser = false
        /// Whether the app changed the role or permission since the server sent the participant.
        var edited = false
    }

    public var role: CKShare.ParticipantRole {
        get { standing.withLock { $0.role } }
        set { standing.withLock { $0.role = newValue; $0.edited = true } }
    }

    public var permission: CKShare.ParticipantPermission {
        get { standing.withLock { $0.permission } }
        set { standing.withLock { $0.permission = newValue; $0.edited = true } }
    }

    public internal(set) var acceptanceStatus: CKShare.ParticipantAcceptanceStatus {
        get { standing.withLock { $0.acceptanceStatus } }
        set { standing.withLock { $0.acceptanceStatus = newValue } }
    }

    /// Whether this participant is the account reading the share (Apple's `IsCurrentUser`).
    var isCurrentUser: Bool {
        get { standing.withLock { $0.isCurrentUser } }
        set { standing.withLock { $0.isCurrentUser = newValue } }
    }

    /// Whether the app changed the role or permission since the server sent the participant
    /// (saving the share then sends its participants).
    var wasEdited: Bool { standing.withLock { $0.edited } }

    init(userIdentity: CKUserIdentity, role: CKShare.ParticipantRole, permission: CKShare.ParticipantPermission, acceptanceStatus: CKShare.ParticipantAcceptanceStatus, participantID: String?) {
        self.userIdentity = userIdentity
        self.standing = Mutex(Standing(role: role, permission: permission, acceptanceStatus: acceptanceStatus))
        self.participantID = participantID ?? UUID().uuidString
    }

    convenience init(wire: ShareParticipant) {
        self.init(
            userIdentity: CKUserIdentity(wire: wire.userIdentity ?? UserIdentity()), role: CKShare.ParticipantRole(wire: wire.type),
            permission: CKShare.ParticipantPermission(wire: wire.permission), acceptanceStatus: CKShare.ParticipantAcceptanceStatus(wire: wire.acceptanceStatus),
            participantID: wire.participantId
        )
    }

    var wire: ShareParticipant {
        ShareParticipant(
            participantId: participantID, userIdentity: userIdentity.wire, type: role == .unknown ? .user : role.wire,
            permission: permission == .unknown ? .readOnly : permission.wire
        )
    }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKShareParticipant else { return false }
        return participantID == other.participantID
    }

    public override var hash: Int { participantID.hashValue }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`ParticipantID`, `UserIdentity`, `Type` — the role —,
    /// `AcceptanceStatus`, `Permission`, `IsCurrentUser`).
    public func encode(with coder: NSCoder) {
        coder.encode(participantID as NSString, forKey: "ParticipantID")
        coder.encode(userIdentity, forKey: "UserIdentity")
        coder.encode(Int64(role.rawValue), forKey: "Type")
        coder.encode(Int64(acceptanceStatus.rawValue), forKey: "AcceptanceStatus")
        coder.encode(Int64(permission.rawValue), forKey: "Permission")
        coder.encode(isCurrentUser, forKey: "IsCurrentUser")
    }

    public init?(coder: NSCoder) {
        guard let identity = coder.object(CKUserIdentity.self, "UserIdentity", "userIdentity"),
            let id = coder.string("ParticipantID", "participantID")
        else { return nil }
        userIdentity = identity
        standing = Mutex(Standing(
            role: CKShare.ParticipantRole(rawValue: coder.int("Type", "role") ?? 0) ?? .unknown,
            permission: CKShare.ParticipantPermission(rawValue: coder.int("Permission", "permission") ?? 0) ?? .unknown,
            acceptanceStatus: CKShare.ParticipantAcceptanceStatus(rawValue: coder.int("AcceptanceStatus", "acceptanceStatus") ?? 0) ?? .unknown,
            isCurrentUser: coder.containsValue(forKey: "IsCurrentUser") && coder.decodeBool(forKey: "IsCurrentUser")
        ))
        participantID = id
    }
}
