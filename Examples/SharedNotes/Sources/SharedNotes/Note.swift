#if os(Linux)
import CloudKit
#else
import StratusCloudKit
#endif

/// A note: its text in a folder, and when it was last edited, on whichever device.
public struct Note: Codable, Hashable, Sendable {
    /// Unique in its folder: the record's name.
    public var id: String
    /// The folder is a zone: the owner's own folders in the private database, folders shared
    /// with this user in the shared database (`owner` is then the sharer's user record name).
    public var folder: String
    public var owner: String
    public var text: String
    public var modified: Date

    public init(id: String, folder: String, owner: String = CKCurrentUserDefaultName, text: String, modified: Date) {
        self.id = id
        self.folder = folder
        self.owner = owner
        self.text = text
        self.modified = modified
    }

    static let recordType = "Note"

    var zoneID: CKRecordZone.ID { CKRecordZone.ID(zoneName: folder, ownerName: owner) }
    var recordID: CKRecord.ID { CKRecord.ID(recordName: id, zoneID: zoneID) }
    /// Whether the note lives in a folder someone shared with this user.
    var isShared: Bool { owner != CKCurrentUserDefaultName }

    /// The note read from a record the server sent.
    init?(_ record: CKRecord) {
        guard record.recordType == Self.recordType, let text = record["text"] as? String, let modified = record["modified"] as? Date else { return nil }
        self.init(
            id: record.recordID.recordName, folder: record.recordID.zoneID.zoneName, owner: record.recordID.zoneID.ownerName,
            text: text, modified: modified
        )
    }

    /// The note's fields set on `record` (the server's last version, so the save carries its change tag).
    func apply(to record: CKRecord) -> CKRecord {
        record["text"] = text
        record["modified"] = modified
        return record
    }
}

/// A note's place in the store: owner, folder and id.
struct NoteKey: Codable, Hashable, Sendable, Comparable {
    var owner: String
    var folder: String
    var id: String

    init(_ note: Note) { self.init(owner: note.owner, folder: note.folder, id: note.id) }
    init(_ recordID: CKRecord.ID) {
        self.init(owner: recordID.zoneID.ownerName, folder: recordID.zoneID.zoneName, id: recordID.recordName)
    }
    init(owner: String, folder: String, id: String) {
        self.owner = owner
        self.folder = folder
        self.id = id
    }

    static func < (lhs: Self, rhs: Self) -> Bool { (lhs.owner, lhs.folder, lhs.id) < (rhs.owner, rhs.folder, rhs.id) }
}
