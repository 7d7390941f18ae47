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
public final class CKShare: CKRecord, @unchecked Sendable {
    /// Share fields the system reads.
    public enum SystemFieldKey {
        public static let title = ShareNames.titleField
        public static let thumbnailImageData = "cloudkit.thumbnailImageData"
        public static let shareType = "cloudkit.type"
    }

    /// What anyone with the URL may do (`.none`: only participants).
    public var publicPermission: ParticipantPermission = .none {
        didSet { sharingChanged = true }
    }
    public internal(set) var url: URL?
    public private(set) var participants: [Participant] = []
    public internal(set) var owner: Participant
    public internal(set) var currentUserParticipant: Participant?
    /// The root record of a hierarchy share (`nil` for a zone-wide share).
    private var rootRecordName: String?
    private var sharingChanged = true

    /// A share of `rootRecord` and its children (records whose `parent` leads to it).
    public convenience init(rootRecord: CKRecord) {
        self.init(rootRecord: rootRecord, shareID: CKRecord.ID(recordName: "Share-\(UUID().uuidString)", zoneID: rootRecord.recordID.zoneID))
    }

    public init(rootRecord: CKRecord, shareID: CKRecord.ID) {
        self.owner = Self.ownerPlaceholder()
        super.init(recordType: ShareNames.recordType, recordID: shareID)
        self.rootRecordName = rootRecord.recordID.recordName
        self.participants = [owner]
    }

    /// A share of every record in a zone.
    public init(recordZoneID: CKRecordZone.ID) {
        self.owner = Self.ownerPlaceholder()
        super.init(recordType: ShareNames.recordType, recordID: CKRecord.ID(recordName: ShareNames.zoneWideShare, zoneID: recordZoneID))
        self.participants = [owner]
    }

    private init(shareRecordID: CKRecord.ID) {
        self.owner = Self.ownerPlaceholder()
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
        guard !participants.contains(where: { $0 == participant || Self.samePerson($0, participant) }) else { return }
        if participant.role == .unknown { participant.role = .privateUser }
        participants.append(participant)
        sharingChanged = true
    }

    /// Whether two participants name the same account or the same invited email.
    private static func samePerson(_ a: Participant, _ b: Participant) -> Bool {
        if let one = a.userIdentity.userRecordID, let other = b.userIdentity.userRecordID { return one == other }
        if let one = a.userIdentity.lookupInfo?.emailAddress, let other = b.userIdentity.lookupInfo?.emailAddress {
            return one.lowercased() == other.lowercased()
        }
        return false
    }

    /// Removes a participant; saving the share takes their access away.
    public func removeParticipant(_ participant: Participant) {
        participants.removeAll { $0 == participant }
        sharingChanged = true
    }

    // MARK: - The wire

    override func wireOperation(policy: CKModifyRecordsOperation.RecordSavePolicy) -> RecordOperation {
        var operation = super.wireOperation(policy: policy)
        if recordChangeTag == nil, let rootRecordName { operation.record.forRecord = RecordPointer(recordName: rootRecordName) }
        if sharingChanged || recordChangeTag == nil {
            operation.record.publicPermission = publicPermission == .unknown ? SharePermission.none : publicPermission.wire
            operation.record.participants = participants.filter { $0.role != .owner }.map(\.wire)
        }
        return operation
    }

    override func apply(wire record: Record, assets: [String: URL] = [:]) {
        super.apply(wire: record, assets: assets)
        url = record.url.flatMap(URL.init(string:))
        publicPermission = ParticipantPermission(wire: record.publicPermission)
        if let wireOwner = record.owner { owner = Participant(wire: wireOwner) }
        // A removed participant stays on the server's list, marked REMOVED; Apple's share omits them.
        var list = (record.participants ?? []).map(Participant.init(wire:)).filter { $0.acceptanceStatus != .removed }
        if !list.contains(where: { $0.role == .owner }) { list.insert(owner, at: 0) }
        participants = list
        currentUserParticipant = record.currentUserParticipant.map(Participant.init(wire:))
        sharingChanged = false
    }

    override func copySystemFields(from other: CKRecord) {
        super.copySystemFields(from: other)
        guard let share = other as? CKShare else { return }
        url = share.url
        owner = share.owner
        participants = share.participants
        currentUserParticipant = share.currentUserParticipant
        rootRecordName = share.rootRecordName
        publicPermission = share.publicPermission
        sharingChanged = share.sharingChanged
    }

    // MARK: - Coding

    public required init?(coder: NSCoder) {
        self.owner = Self.ownerPlaceholder()
        super.init(coder: coder)
        if coder.containsValue(forKey: "url"), let text = coder.decodeObject(of: NSString.self, forKey: "url") { url = URL(string: text as String) }
        publicPermission = ParticipantPermission(rawValue: Int(coder.decodeInt64(forKey: "publicPermission"))) ?? .none
        sharingChanged = false
    }

    public override func encodeSystemFields(with coder: NSCoder) {
        super.encodeSystemFields(with: coder)
        if let url { coder.encode(url.absoluteString as NSString, forKey: "url") }
        coder.encode(Int64(publicPermission.rawValue), forKey: "publicPermission")
    }
}
