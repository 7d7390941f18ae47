import Foundation
import StratusModel

/// A record: a type, an ID, typed fields, and the system fields the server keeps (change tag,
/// creation and modification dates and users, parent, share). A class, as Apple's: operations
/// hand records back and forth, and an app keeps the last one the server returned.
///
/// `encryptedValues` are kept as ordinary fields (Stratus does not encrypt), under the same keys.
// `@unchecked Sendable` as Apple declares it: its mutable fields and system fields are read and
// written under `lock` only.
public class CKRecord: NSObject, NSSecureCoding, NSCopying, CKRecordKeyValueSetting, @unchecked Sendable {
    public typealias RecordType = String
    public typealias FieldKey = String

    public let recordType: RecordType
    public let recordID: ID
    public package(set) var recordChangeTag: String? {
        get { lock.withLock { system.changeTag } }
        set { lock.withLock { system.changeTag = newValue } }
    }
    public internal(set) var creationDate: Date? {
        get { lock.withLock { system.created } }
        set { lock.withLock { system.created = newValue } }
    }
    public internal(set) var modificationDate: Date? {
        get { lock.withLock { system.modified } }
        set { lock.withLock { system.modified = newValue } }
    }
    public internal(set) var creatorUserRecordID: ID? {
        get { lock.withLock { system.creator } }
        set { lock.withLock { system.creator = newValue } }
    }
    public internal(set) var lastModifiedUserRecordID: ID? {
        get { lock.withLock { system.modifier } }
        set { lock.withLock { system.modifier = newValue } }
    }
    /// The record this one belongs to in a share's hierarchy.
    public var parent: Reference? {
        get { lock.withLock { storedParent } }
        set { lock.withLock { storedParent = newValue; parentChanged = true } }
    }
    /// The share this record is the root of, when it is one.
    public internal(set) var share: Reference? {
        get { lock.withLock { system.share } }
        set { lock.withLock { system.share = newValue } }
    }
    /// The share's short GUID (a record of a share's hierarchy names it).
    var shortGUID: String? {
        get { lock.withLock { system.shortGUID } }
        set { lock.withLock { system.shortGUID = newValue } }
    }

    /// The fields the server keeps, read and written under ``lock`` like the values (an app may
    /// read a record while an operation's task updates it).
    private struct SystemFields {
        var changeTag: String?
        var created: Date?
        var modified: Date?
        var creator: ID?
        var modifier: ID?
        var share: Reference?
        var shortGUID: String?
    }

    private var system = SystemFields()
    let lock = NSLock()
    private var values: [FieldKey: any CKRecordValue] = [:]
    private var changed: Set<FieldKey> = []
    private var storedParent: Reference?
    private var parentChanged = false
    /// The fields as the server last sent them (``ancestor``): copy-on-write, so free until edited.
    private var serverValues: [FieldKey: any CKRecordValue] = [:]

    public init(recordType: RecordType, recordID: ID = ID()) {
        self.recordType = recordType
        self.recordID = recordID
    }

    public convenience init(recordType: RecordType, zoneID: CKRecordZone.ID) {
        self.init(recordType: recordType, recordID: ID(zoneID: zoneID))
    }

    // MARK: - Fields

    public subscript(key: FieldKey) -> (any CKRecordValue)? {
        get { object(forKey: key) }
        set { setObject(newValue, forKey: key) }
    }

    public func object(forKey key: FieldKey) -> (any CKRecordValue)? { lock.withLock { values[key] } }

    public func setObject(_ object: (any CKRecordValue)?, forKey key: FieldKey) {
        // Numbers are kept as NSNumber, as Apple's records keep them: `as? Int`, `as? Double` both read them.
        let normalized = object.map(RecordValues.normalized)
        lock.withLock {
            values[key] = normalized
            changed.insert(key)
        }
    }

    /// The keys of every field with a value.
    public func allKeys() -> [FieldKey] { lock.withLock { values.keys.sorted() } }

    /// The keys set since the record came from the server (or was made).
    public func changedKeys() -> [FieldKey] { lock.withLock { changed.sorted() } }

    /// Values the app wants encrypted (kept as ordinary fields here, under the same keys).
    public var encryptedValues: any CKRecordKeyValueSetting & Sendable { self }

    public func setParent(_ parentRecord: CKRecord?) {
        parent = parentRecord.map { Reference(record: $0, action: .none) }
    }

    public func setParent(_ parentID: ID?) {
        parent = parentID.map { Reference(recordID: $0, action: .none) }
    }

    public override var description: String { "<CKRecord: \(recordType) \(recordID.recordName) tag \(recordChangeTag ?? "-")>" }

    // MARK: - Copying

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = Self.make(recordType: recordType, recordID: recordID)
        copy.copySystemFields(from: self)
        lock.withLock {
            copy.values = values
            copy.changed = changed
            copy.serverValues = serverValues
            copy.storedParent = storedParent
            copy.parentChanged = parentChanged
        }
        return copy
    }

    /// A record of this class (``CKShare`` makes shares).
    class func make(recordType: RecordType, recordID: ID) -> CKRecord { CKRecord(recordType: recordType, recordID: recordID) }

    func copySystemFields(from other: CKRecord) {
        let fields = other.lock.withLock { other.system }
        lock.withLock { system = fields }
    }

    /// The record as the server last sent it, for a `serverRecordChanged`'s ancestor; `nil` for
    /// a record the server never sent.
    var ancestor: CKRecord? {
        guard recordChangeTag != nil else { return nil }
        let ancestor = Self.make(recordType: recordType, recordID: recordID)
        ancestor.copySystemFields(from: self)
        lock.withLock {
            ancestor.values = serverValues
            ancestor.serverValues = serverValues
        }
        return ancestor
    }

    // MARK: - The wire

    /// The fields to send: every field (`all`) or those changed; `nil` values clear a field.
    func wireFields(all: Bool) -> (fields: [String: Field], cleared: [String]) {
        lock.withLock {
            var fields: [String: Field] = [:]
            var cleared: [String] = []
            let keys = all ? Set(values.keys).union(changed) : changed
            for key in keys {
                if let value = values[key], let field = RecordValues.field(from: value) { fields[key] = field } else { cleared.append(key) }
            }
            return (fields, cleared)
        }
    }

    /// Assets set in changed fields that the server does not hold yet (no server value).
    func assetsToUpload(all: Bool) -> [(key: FieldKey, asset: CKAsset)] {
        lock.withLock {
            let keys = all ? Set(values.keys) : changed
            return keys.sorted().compactMap { key in
                guard let asset = values[key] as? CKAsset, asset.stored?.receipt == nil, asset.stored?.fileChecksum == nil else { return nil }
                return (key, asset)
            }
        }
    }

    /// Replaces a field's value with its uploaded counterpart, leaving it marked changed.
    func replaceAsset(_ key: FieldKey, with uploaded: CKAsset) {
        lock.withLock { values[key] = uploaded }
    }

    var parentForWire: (pointer: RecordPointer?, changed: Bool) {
        lock.withLock { (storedParent.map { RecordPointer(recordName: $0.recordID.recordName) }, parentChanged) }
    }

    /// The records/modify operation that saves this record under `policy`: a record the server
    /// never sent is created; with its change tag only its changed fields go (`update`);
    /// `changedKeys` and `allKeys` skip the tag check (`forceUpdate`), `allKeys` sending every
    /// local field. No save removes a field the device did not clear: a cleared field or parent
    /// goes as the `clearedFields`/`clearsParent` extension, and keys only the server has stay
    /// under every policy, as Apple's framework leaves them.
    func wireOperation(policy: CKModifyRecordsOperation.RecordSavePolicy) -> RecordOperation {
        let all = policy == .allKeys || recordChangeTag == nil
        let (fields, cleared) = wireFields(all: all)
        let (parent, parentChanged) = parentForWire
        let type: RecordOperationType
        switch policy {
        case .ifServerRecordUnchanged: type = recordChangeTag == nil ? .create : .update
        case .changedKeys, .allKeys: type = .forceUpdate
        }
        var wire = Record(recordName: recordID.recordName, recordType: recordType, recordChangeTag: recordChangeTag, fields: fields)
        if parentChanged || all { wire.parent = parent }
        if type != .create {
            if !cleared.isEmpty { wire.clearedFields = cleared.sorted() }
            if parentChanged && parent == nil { wire.clearsParent = true }
        }
        return RecordOperation(type, wire)
    }

    /// Takes the server's system fields and values (after a fetch or a save).
    func apply(wire record: Record, assets: [String: URL] = [:]) {
        let zoneID = recordID.zoneID
        recordChangeTag = record.recordChangeTag
        creationDate = record.created.map { Date(timeIntervalSince1970: Double($0.timestamp) / 1000) }
        modificationDate = record.modified.map { Date(timeIntervalSince1970: Double($0.timestamp) / 1000) }
        creatorUserRecordID = record.created?.userRecordName.map { ID(recordName: $0) }
        lastModifiedUserRecordID = record.modified?.userRecordName.map { ID(recordName: $0) }
        share = record.share.map { Reference(recordID: ID(recordName: $0.recordName, zoneID: CKRecordZone.ID.resolving($0.zoneID, in: zoneID)), action: .none) }
        shortGUID = record.shortGUID
        var decoded: [FieldKey: any CKRecordValue] = [:]
        for (key, field) in record.fields ?? [:] {
            if let value = RecordValues.value(of: field, in: zoneID, assets: assets) { decoded[key] = value }
        }
        lock.withLock {
            values = decoded
            serverValues = decoded
            changed = []
            storedParent = record.parent.map { Reference(recordID: ID(recordName: $0.recordName, zoneID: zoneID), action: .none) }
            parentChanged = false
        }
    }

    // MARK: - Coding (Records/CKRecord+Coding.swift)

    public class var supportsSecureCoding: Bool { true }

    /// Archives the system fields only (ID, type, change tag, dates, users, parent, share) under
    /// Apple's keys: what a CKSyncEngine app stores to save a record later without a conflict.
    public func encodeSystemFields(with coder: NSCoder) {
        writeSystemFields(to: coder)
    }

    /// Archives the system fields and every value (an asset not yet uploaded with its file),
    /// and which are edits not saved yet, under Apple's keys.
    public func encode(with coder: NSCoder) {
        encodeSystemFields(with: coder)
        writeValues(to: coder)
    }

    /// A record from an archive of ``encodeSystemFields(with:)`` (no values) or ``encode(with:)``
    /// — written here or by Apple's framework (its keys), or by Stratus before it wrote Apple's.
    public required init?(coder: NSCoder) {
        guard let type = coder.string("RecordType", "recordType"), let recordID = coder.object(ID.self, "RecordID", "recordID") else { return nil }
        self.recordType = type
        self.recordID = recordID
        super.init()
        readSystemFields(from: coder)
        readValues(from: coder)
    }

    // What the coding extension reads and writes, under the lock.

    var archivedState: (values: [FieldKey: any CKRecordValue], server: [FieldKey: any CKRecordValue], changed: Set<FieldKey>, parent: Reference?, parentChanged: Bool) {
        lock.withLock { (values, serverValues, changed, storedParent, parentChanged) }
    }

    func restoreArchived(values: [FieldKey: any CKRecordValue], server: [FieldKey: any CKRecordValue], changed: Set<FieldKey>) {
        lock.withLock {
            self.values = values
            self.serverValues = server
            self.changed = changed
        }
    }

    func restoreArchived(parent: Reference?, changed: Bool) {
        lock.withLock {
            storedParent = parent
            parentChanged = changed
        }
    }
}
