import Foundation
import StratusModel

/// The record name of every zone-wide share.
public let CKRecordNameZoneWideShare = ShareNames.zoneWideShare

extension CKRecord {
    /// The record types the system defines.
    public enum SystemType {
        public static let share = ShareNames.recordType
        public static let userRecord = "Users"
    }
}

/// A share: a record of type `cloudkit.share` that opens a record hierarchy (``init(rootRecord:)``)
/// or a whole zone (``init(recordZoneID:)``) to participants. Save it with its root record in
/// one `modifyRecords`; the saved share has its ``url``, which a participant accepts.
// `@unchecked Sendable` as Apple declares it (restated for the subclass): its fields and
// participants are guarded by its record's `lock`.
public final class CKShare: CKRecord, @unchecked Sendable {
    /// Share fields the system reads.
    public enum SystemFieldKey {
        public static let title = ShareNames.titleField
        public static let thumbnailImageData = "cloudkit.thumbnailImageData"
        public static let shareType = "cloudkit.type"
    }

    /// What the share says about who may see what, read and written under the record's lock.
    private struct Sharing {
        var publicPermission: ParticipantPermission = .none
        var url: URL?
        var participants: [Participant]
        var owner: Participant
        var currentUserParticipant: Participant?
        /// The root record of a hierarchy share (`nil` for a zone-wide share).
        var rootRecordName: String?
        /// Whether participants or the public permission changed since the server sent the share.
        var changed = true

        init(owner: Participant, rootRecordName: String?) {
            self.owner = owner
            self.participants = [owner]
            self.rootRecordName = rootRecordName
        }
    }

    private var sharing: Sharing

    /// What anyone with the URL may do (`.none`: only participants).
    public var publicPermission: ParticipantPermission {
        get { lock.withLock { sharing.publicPermission } }
        set { lock.withLock { sharing.publicPermission = newValue; sharing.changed = true } }
    }
    public internal(set) var url: URL? {
        get { lock.withLock { sharing.url } }
        set { lock.withLock { sharing.url = newValue } }
    }
    public var participants: [Participant] { lock.withLock { sharing.participants } }
    public internal(set) var owner: Participant {
        get { lock.withLock { sharing.owner } }
        set { lock.withLock { sharing.owner = newValue } }
    }
    public internal(set) var currentUserParticipant: Participant? {
        get { lock.withLock { sharing.currentUserParticipant } }
        set { lock.withLock { sharing.currentUserParticipant = newValue } }
    }

    /// A share of `rootRecord` and its children (records whose `parent` leads to it).
    public convenience init(rootRecord: CKRecord) {
        self.init(rootRecord: rootRecord, shareID: CKRecord.ID(recordName: "Share-\(UUID().uuidString)", zoneID: rootRecord.recordID.zoneID))
    }

    public init(rootRecord: CKRecord, shareID: CKRecord.ID) {
        self.sharing = Sharing(owner: Self.ownerPlaceholder(), rootRecordName: rootRecord.recordID.recordName)
        super.init(recordType: ShareNames.recordType, recordID: shareID)
    }

    /// A share of every record in a zone.
    public init(recordZoneID: CKRecordZone.ID) {
        self.sharing = Sharing(owner: Self.ownerPlaceholder(), rootRecordName: nil)
        super.init(recordType: ShareNames.recordType, recordID: CKRecord.ID(recordName: ShareNames.zoneWideShare, zoneID: recordZoneID))
    }

    private init(shareRecordID: CKRecord.ID) {
        self.sharing = Sharing(owner: Self.ownerPlaceholder(), rootRecordName: nil)
        super.init(recordType: ShareNames.recordType, recordID: shareRecordID)
    }

    override class func make(recordType: RecordType, recordID: ID) -> CKRecord { CKShare(shareRecordID: recordID) }

    private static func ownerPlaceholder() -> Participant {
        Participant(
            userIdentity: CKUserIdentity(userRecordID: nil, lookupInfo: nil, nameComponents: nil), role: .owner, permission: .readWrite,
            acceptanceStatus: .accepted, participantID: nil
        )
    }

    /// Adds a participant (from ``CKContainer/shareParticipant(forEmailAddress:)`` or the like).
    public func addParticipant(_ participant: Participant) {
        if participant.role == .unknown { participant.role = .privateUser }
        lock.withLock {
            guard !sharing.participants.contains(where: { $0 == participant || Self.samePerson($0, participant) }) else { return }
            sharing.participants.append(participant)
            sharing.changed = true
        }
    }

    /// Whether two participants name the same account or the same invited email.
    private static func samePerson(_ a: Participant, _ b: Participant) -> Bool {
        if let one = a.userIdentity.userRecordID, let other = b.userIdentity.userRecordID { return one == other }
        if let one = a.userIdentity.lookupInfo?.emailAddress, let other = b.userIdentity.lookupInfo?.emailAddress {
            return one.lowercased() == other.lowercased()
        }
        return false
    }

    /// Whether two participant objects stand for the same participant of the share.
    static func sameParticipant(_ a: Participant, _ b: Participant) -> Bool {
        a.participantID == b.participantID || samePerson(a, b)
    }

    /// Removes a participant; saving the share takes their access away.
    public func removeParticipant(_ participant: Participant) {
        lock.withLock {
            sharing.participants.removeAll { $0 == participant }
            sharing.changed = true
        }
    }

    // MARK: - The wire

    /// A share is always saved as `.ifServerRecordUnchanged`, whatever the operation's policy
    /// (Apple's rule: participants are never overwritten blindly).
    override func wireOperation(policy: CKModifyRecordsOperation.RecordSavePolicy) -> RecordOperation {
        var operation = super.wireOperation(policy: .ifServerRecordUnchanged)
        let current = lock.withLock { sharing }
        if recordChangeTag == nil, let root = current.rootRecordName { operation.record.forRecord = RecordPointer(recordName: root) }
        if current.changed || recordChangeTag == nil || current.participants.contains(where: \.wasEdited) {
            operation.record.publicPermission = current.publicPermission == .unknown ? SharePermission.none : current.publicPermission.wire
            operation.record.participants = current.participants.filter { $0.role != .owner }.map(\.wire)
        }
        return operation
    }

    override func apply(wire record: Record, assets: [String: URL] = [:]) {
        super.apply(wire: record, assets: assets)
        var received = lock.withLock { sharing }
        received.url = record.url.flatMap(URL.init(string:))
        received.publicPermission = ParticipantPermission(wire: record.publicPermission)
        if let wireOwner = record.owner { received.owner = Participant(wire: wireOwner) }
        // A removed participant stays on the server's list, marked REMOVED; Apple's share omits them.
        var list = (record.participants ?? []).map(Participant.init(wire:)).filter { $0.acceptanceStatus != .removed }
        if !list.contains(where: { $0.role == .owner }) { list.insert(received.owner, at: 0) }
        received.participants = list
        received.currentUserParticipant = record.currentUserParticipant.map(Participant.init(wire:))
        if let me = received.currentUserParticipant {
            me.isCurrentUser = true
            for participant in list where Self.sameParticipant(participant, me) { participant.isCurrentUser = true }
        }
        received.changed = false
        lock.withLock { sharing = received }
    }

    override func copySystemFields(from other: CKRecord) {
        super.copySystemFields(from: other)
        guard let share = other as? CKShare else { return }
        let copied = share.lock.withLock { share.sharing }
        lock.withLock { sharing = copied }
    }

    // MARK: - Coding

    /// A share from an archive — its system fields carry who takes part, as Apple's do.
    public required init?(coder: NSCoder) {
        self.sharing = Sharing(owner: Self.ownerPlaceholder(), rootRecordName: nil)
        super.init(coder: coder)
        var restored = Sharing(owner: Self.ownerPlaceholder(), rootRecordName: nil)
        if let text = coder.string("StratusURL", "url") { restored.url = URL(string: text) } else if let url = coder.object(NSURL.self, "URL") { restored.url = url as URL }
        restored.publicPermission = ParticipantPermission(rawValue: coder.int("PublicPermission", "publicPermission") ?? 1) ?? .none
        restored.rootRecordName = coder.object(CKRecord.ID.self, "RootRecordID")?.recordName
        let participants = coder.object(ofClasses: [NSArray.self, NSMutableArray.self, Participant.self], "Participants") as? [Participant] ?? []
        if let owner = participants.first(where: { $0.role == .owner }) { restored.owner = owner }
        restored.participants = participants.isEmpty ? [restored.owner] : participants.filter { $0.acceptanceStatus != .removed }
        restored.currentUserParticipant = participants.first(where: \.isCurrentUser)
        restored.changed = false
        lock.withLock { sharing = restored }
    }

    /// The record's system fields and the share's: its URL, public permission, root record and
    /// every participant (the reader's own marked `IsCurrentUser`), under Apple's keys.
    public override func encodeSystemFields(with coder: NSCoder) {
        super.encodeSystemFields(with: coder)
        let current = lock.withLock { sharing }
        if let url = current.url {
            coder.encode(url as NSURL, forKey: "URL")
            coder.encode(url.absoluteString as NSString, forKey: "StratusURL")
        }
        coder.encode(Int64(current.publicPermission.rawValue), forKey: "PublicPermission")
        if let root = current.rootRecordName { coder.encode(CKRecord.ID(recordName: root, zoneID: recordID.zoneID), forKey: "RootRecordID") }
        var participants = current.participants
        if let me = current.currentUserParticipant, !participants.contains(where: { Self.sameParticipant($0, me) }) { participants.append(me) }
        coder.encode(NSMutableArray(array: participants), forKey: "Participants")
    }
}
