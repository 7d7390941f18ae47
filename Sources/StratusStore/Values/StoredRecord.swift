import StratusModel

/// A record as the store keeps it: the latest version, or a tombstone.
public struct StoredRecord: Sendable, Hashable {
    public var name: String
    public var type: String
    public var fields: [String: Field]
    public var created: RecordStamp
    public var modified: RecordStamp
    public var parentName: String?
    public var shareName: String?
    public var shortGUID: String?
    /// The global change sequence value of the latest change; the change tag derives from it.
    public var seq: Int64
    public var deleted: Bool

    public init(
        name: String, type: String, fields: [String: Field], created: RecordStamp, modified: RecordStamp,
        parentName: String? = nil, shareName: String? = nil, shortGUID: String? = nil, seq: Int64, deleted: Bool = false
    ) {
        self.name = name
        self.type = type
        self.fields = fields
        self.created = created
        self.modified = modified
        self.parentName = parentName
        self.shareName = shareName
        self.shortGUID = shortGUID
        self.seq = seq
        self.deleted = deleted
    }

    /// The record's change tag: a new value on every save.
    public var changeTag: String { StoredRecord.changeTag(for: seq) }

    /// The change tag a record saved at `seq` has.
    public static func changeTag(for seq: Int64) -> String { String(seq, radix: 36) }
}
