import StratusModel

/// Who makes a change, and when: stamped on every record a batch writes.
public struct ChangeAuthor: Sendable, Hashable {
    public var userRecordName: String
    public var deviceID: String?
    /// Milliseconds since 1970.
    public var timestamp: Int64

    public init(userRecordName: String, deviceID: String?, timestamp: Int64) {
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.timestamp = timestamp
    }
}

/// One record write of a zone batch, in storage terms: the precondition and the new content.
public struct RecordWrite: Sendable, Hashable {
    /// What the write does with the row.
    public enum Action: Sendable, Hashable {
        /// Insert; fails with ``WriteFailure/exists`` if a live record has the name.
        case create
        /// Merge `fields` into the record (``replace`` = drop fields not given).
        case save(replace: Bool)
        /// Make the record a tombstone.
        case delete
        /// The author, a participant of the share record named, leaves it: their participation
        /// is removed and the share record changes; to them it reads as deleted.
        case leave
    }

    /// What the current row must be for the write to apply.
    public enum Precondition: Sendable, Hashable {
        /// The record must exist with this change tag.
        case changeTag(String)
        /// Anything goes; a missing record is created (saves) or the delete succeeds as a no-op.
        case none
    }

    public var name: String
    public var action: Action
    public var precondition: Precondition
    /// Required when the write may create the record.
    public var recordType: String?
    public var fields: [String: Field]
    public var parentName: String?
    /// A merge (`save(replace: false)`) removes these fields from the record.
    public var clearedFields: Set<String> = []
    /// A merge removes the record's parent (`parentName` is then `nil`).
    public var clearsParent = false
    /// Give the record a short GUID if it has none (`createShortGUID`).
    public var createShortGUID: Bool
    /// Set on writes to a `cloudkit.share` record: the share's participants and root.
    public var share: ShareWrite?
    /// Records of the zone this write's `DELETE_SELF` and `VALIDATE` references point at: each
    /// must exist when the batch commits (saved earlier or in the same batch), or the write fails
    /// with ``WriteFailure/missingReference(_:)``.
    public var requiredTargets: Set<String> = []
    /// Receipts the write presents for new asset bytes: claimed in the batch.
    public var assetClaims: [AssetClaim] = []
    /// Checksums of assets the write gives without a receipt: each must already be on the record.
    public var unclaimedAssets: Set<String> = []

    public init(
        name: String, action: Action, precondition: Precondition, recordType: String?,
        fields: [String: Field] = [:], parentName: String? = nil,
        createShortGUID: Bool = false, share: ShareWrite? = nil
    ) {
        self.name = name
        self.action = action
        self.precondition = precondition
        self.recordType = recordType
        self.fields = fields
        self.parentName = parentName
        self.createShortGUID = createShortGUID
        self.share = share
    }
}

/// Why one write of a batch did not apply.
public enum WriteFailure: Sendable, Hashable {
    /// `create` of a name that is taken; carries the server's record.
    case exists(StoredRecord)
    /// The change tag is stale; carries the server's record.
    case conflict(StoredRecord)
    /// The write needs an existing record and there is none.
    case notFound
    /// The record exists and the batch's ``ZoneBatch/rights`` do not let its author change it.
    case permissionDenied
    /// The record does not exist and the batch's ``ZoneBatch/rights`` do not let its author
    /// create records of its type.
    case createDenied
    /// The write cannot create the record (no record type) or changes what may not change.
    case invalid(String)
    /// The batch was atomic and another write failed.
    case atomicAborted
    /// A `DELETE_SELF` or `VALIDATE` reference names a record the zone does not hold.
    case missingReference(String)
    /// The write gives the record a `parent` the zone does not hold.
    case missingParent(String)
    /// The write would take the zone owner's records over their storage quota.
    case quotaExceeded(quota: Int64)
    /// An asset of the write has no valid receipt (unknown, used for another record, its bytes
    /// collected) and is not already on the record.
    case assetRefused(String)
    /// A new share would put a record, or a zone and its records, in a second share (CloudKit's
    /// `alreadyShared`); carries why (``ShareRules/checkOneShare(creating:rootName:rootShare:other:zone:)``).
    case alreadyShared(String)
}

/// The result of one write, in batch order.
public enum WriteOutcome: Sendable, Hashable {
    case saved(StoredRecord)
    case deleted(name: String)
    case failed(WriteFailure)
}

/// The writes of one request to one zone: applied in one transaction.
public struct ZoneBatch: Sendable, Hashable {
    public var zone: ZoneKey
    /// All-or-nothing (only honoured in zones with the atomic capability).
    public var atomic: Bool
    public var writes: [RecordWrite]
    public var author: ChangeAuthor
    /// Field types to learn for the container's schema; a write conflicting with a learned type fails.
    public var schema: [SchemaField]
    /// Whether the schema may grow (development) or is locked (production).
    public var schemaMayGrow: Bool
    /// When set, what the author may create and change (the public database's security roles);
    /// a write they do not allow fails with ``WriteFailure/permissionDenied`` or
    /// ``WriteFailure/createDenied``. `nil`: no such check (private and shared databases, the
    /// developer).
    public var rights: WriteRights?

    public init(
        zone: ZoneKey, atomic: Bool, writes: [RecordWrite], author: ChangeAuthor, schema: [SchemaField] = [], schemaMayGrow: Bool = true,
        rights: WriteRights? = nil
    ) {
        self.zone = zone
        self.atomic = atomic
        self.writes = writes
        self.author = author
        self.schema = schema
        self.schemaMayGrow = schemaMayGrow
        self.rights = rights
    }
}

/// A field type of a record type, as the schema records it.
public struct SchemaField: Sendable, Hashable {
    public var recordType: String
    public var fieldName: String
    public var type: FieldType

    public init(recordType: String, fieldName: String, type: FieldType) {
        self.recordType = recordType
        self.fieldName = fieldName
        self.type = type
    }
}

/// What one write did to a record, for whoever watches the zone (query subscriptions): the
/// record's type, fields and system stamps after a save, before a delete (what records/query
/// would have answered for it).
public struct RecordChange: Sendable, Hashable {
    public enum Kind: Sendable, Hashable { case created, updated, deleted }

    public var name: String
    public var type: String
    public var fields: [String: Field]
    public var kind: Kind
    /// Who created the record, and when (`createdUserRecordName`, `createdTimestamp`).
    public var created: RecordStamp?
    /// Who last modified it, and when (`modifiedUserRecordName`, `modifiedTimestamp`).
    public var modified: RecordStamp?

    public init(
        name: String, type: String, fields: [String: Field], kind: Kind, created: RecordStamp? = nil, modified: RecordStamp? = nil
    ) {
        self.name = name
        self.type = type
        self.fields = fields
        self.kind = kind
        self.created = created
        self.modified = modified
    }

    /// The change of `record` as it is after a save (or was before a delete).
    public init(_ record: StoredRecord, kind: Kind) {
        self.init(name: record.name, type: record.type, fields: record.fields, kind: kind, created: record.created, modified: record.modified)
    }
}

/// The result of a zone batch: the outcomes in order and the zone after it.
public struct ZoneBatchResult: Sendable, Hashable {
    public var outcomes: [WriteOutcome]
    public var zone: StoredZone
    /// The change sequence just before the batch: what changed in it lies above this value.
    public var previousSeq: Int64
    /// The records the batch's writes created, updated or deleted, in order (empty when it
    /// did not commit).
    public var changes: [RecordChange]

    public init(outcomes: [WriteOutcome], zone: StoredZone, previousSeq: Int64 = 0, changes: [RecordChange] = []) {
        self.outcomes = outcomes
        self.zone = zone
        self.previousSeq = previousSeq
        self.changes = changes
    }

    /// Whether the batch wrote anything.
    public var committed: Bool { zone.lastSeq > previousSeq }
}
