import StratusModel

/// A participant of a share as the store keeps it.
public struct StoredParticipant: Sendable, Hashable {
    /// Stable for the participant's lifetime in the share.
    public var id: String
    /// Set once the participant is matched to an account (at invitation or acceptance).
    public var userRecordName: String?
    /// The invited email address, when invited by email.
    public var email: String?
    public var role: ParticipantRole
    public var permission: SharePermission
    public var status: ParticipantAcceptanceStatus

    public init(
        id: String, userRecordName: String?, email: String?, role: ParticipantRole,
        permission: SharePermission, status: ParticipantAcceptanceStatus
    ) {
        self.id = id
        self.userRecordName = userRecordName
        self.email = email
        self.role = role
        self.permission = permission
        self.status = status
    }
}

/// A participant as a share save names it: matched to an existing one by id, user or email,
/// or invited anew.
public struct ParticipantSpec: Sendable, Hashable {
    public var id: String?
    public var userRecordName: String?
    public var email: String?
    public var role: ParticipantRole
    public var permission: SharePermission
    /// `.removed` removes the participant; anything else keeps its status (new ones are invited).
    public var status: ParticipantAcceptanceStatus?

    public init(
        id: String?, userRecordName: String?, email: String?, role: ParticipantRole,
        permission: SharePermission, status: ParticipantAcceptanceStatus?
    ) {
        self.id = id
        self.userRecordName = userRecordName
        self.email = email
        self.role = role
        self.permission = permission
        self.status = status
    }
}

/// The share part of a write to a `cloudkit.share` record, applied with the record row.
public struct ShareWrite: Sendable, Hashable {
    /// The hierarchy's root (creates only); `nil` for a zone-wide share.
    public var rootName: String?
    /// `nil` keeps the current value (a new share starts at `.none`).
    public var publicPermission: SharePermission?
    /// The full participant list; `nil` keeps the current one. The owner is never removed.
    public var participants: [ParticipantSpec]?
    /// The most participants (owner included) the share may have.
    public var participantLimit: Int

    public init(rootName: String?, publicPermission: SharePermission?, participants: [ParticipantSpec]?, participantLimit: Int) {
        self.rootName = rootName
        self.publicPermission = publicPermission
        self.participants = participants
        self.participantLimit = participantLimit
    }
}

/// A live share with where it lives and who takes part.
public struct StoredShare: Sendable, Hashable {
    /// The owner's private zone.
    public var zone: ZoneKey
    /// The zone's incarnation id.
    public var zoneRowID: Int64
    public var record: StoredRecord
    /// The hierarchy's root; `nil` for a zone-wide share.
    public var rootName: String?
    public var shortGUID: String
    public var publicPermission: SharePermission
    /// In the order they were added; the owner first.
    public var participants: [StoredParticipant]

    public init(
        zone: ZoneKey, zoneRowID: Int64, record: StoredRecord, rootName: String?, shortGUID: String,
        publicPermission: SharePermission, participants: [StoredParticipant]
    ) {
        self.zone = zone
        self.zoneRowID = zoneRowID
        self.record = record
        self.rootName = rootName
        self.shortGUID = shortGUID
        self.publicPermission = publicPermission
        self.participants = participants
    }

    public var owner: String { zone.database.owner }

    /// The participant for this account, if any.
    public func participant(user: String) -> StoredParticipant? {
        participants.first { $0.userRecordName == user }
    }

    /// Where the account stands in the participant list: its own entry, or else an invitation
    /// of its email address not yet matched to an account.
    public func invitationIndex(user: String, email: String?) -> Int? {
        participants.firstIndex { $0.userRecordName == user }
            ?? participants.firstIndex { participant in
                guard participant.userRecordName == nil, let invited = participant.email, let email else { return false }
                return invited.lowercased() == email.lowercased()
            }
    }
}

/// A zone of a user's shared database: another owner's zone the user takes part in (or took
/// part in, when `removed`).
public struct SharedZone: Sendable, Hashable {
    public var zone: StoredZone
    public var owner: String
    /// The user no longer sees the zone (left, removed, sharing stopped) or the owner deleted it.
    public var removed: Bool
    /// The change sequence value at which the user's access last changed: zone tokens older
    /// than it are expired for this user.
    public var accessSeq: Int64

    public init(zone: StoredZone, owner: String, removed: Bool, accessSeq: Int64) {
        self.zone = zone
        self.owner = owner
        self.removed = removed
        self.accessSeq = accessSeq
    }
}

/// One page of a user's shared database feed.
public struct SharedDatabaseChangePage: Sendable, Hashable {
    public var zones: [SharedZone]
    public var throughSeq: Int64
    public var moreComing: Bool
    /// Removed zones are listed only when they went after this sequence value (see
    /// ``DatabaseChangePage/deletionsAfter``).
    public var deletionsAfter: Int64

    public init(zones: [SharedZone], throughSeq: Int64, moreComing: Bool, deletionsAfter: Int64 = 0) {
        self.zones = zones
        self.throughSeq = throughSeq
        self.moreComing = moreComing
        self.deletionsAfter = deletionsAfter
    }

    /// A page of the shared-database feed from its entries read past `seq` in position order
    /// (at most `limit + 1`, each with its position): the first `limit`, and through where; the
    /// whole feed up to `current` when nothing more is coming.
    package init(entries: [(SharedZone, Int64)], limit: Int, after seq: Int64, current: Int64, deletionsAfter: Int64 = 0) {
        if entries.count > limit {
            let page = entries.prefix(limit)
            self.init(zones: page.map(\.0), throughSeq: page.last?.1 ?? seq, moreComing: true, deletionsAfter: deletionsAfter)
        } else {
            self.init(zones: entries.map(\.0), throughSeq: max(current, seq), moreComing: false, deletionsAfter: deletionsAfter)
        }
    }
}

/// What accepting a share did.
public enum AcceptOutcome: Sendable, Hashable {
    /// The caller is (now) an accepted participant, or the owner.
    case accepted(StoredShare)
    /// No live share has that short GUID.
    case notFound
    /// A private share that does not invite the caller, or one that removed them.
    case notInvited
    /// A public share that is full.
    case tooManyParticipants
}

/// Who is accepting: the account and the email it may have been invited by.
public struct Acceptor: Sendable, Hashable {
    public var userRecordName: String
    public var email: String?
    public var timestamp: Int64
    /// The most participants a public share may grow to.
    public var participantLimit: Int

    public init(userRecordName: String, email: String?, timestamp: Int64, participantLimit: Int) {
        self.userRecordName = userRecordName
        self.email = email
        self.timestamp = timestamp
        self.participantLimit = participantLimit
    }
}
