import Foundation
import StratusModel

/// A record: a type, an ID, typed fields, and the system fields the server keeps (change tag,
/// creation and modification dates and users, parent, share). A class, as Apple's: operations
/// hand records back and forth, and an app keeps the last one the server returned.
///
/// `encryptedValues` are kept as ordinary fields (Stratus does not encrypt), under the same keys.
public class CKRecord: NSObject, NSSecureCoding, NSCopying, CKRecordKeyValueSetting, @unchecked Sendable {
    public typealias RecordType = String
    public typealias FieldKey = String

    public let recordType: RecordType
    public let recordID: ID
    public internal(set) var recordChangeTag: String? {
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
        get { lock.withLock { values[key] } }
        set {
            // Numbers are kept as NSNumber, as Apple's records keep them: `as? Int`, `as? Double` both read them.
            let normalized = newValue.map(RecordValues.normalized)
            lock.withLock {
                values[key] = normalized
                changed.insert(key)
            }
        }
    }

    /// A field's value as `T` (`let title: String? = record["title"]`).
    public subscript<T: CKRecordValueProtocol>(key: FieldKey) -> T? {
        get { self[key] as? T }
        set { self[key] = newValue }
    }

    public func object(forKey key: FieldKey) -> (any CKRecordValue)? { self[key] }

    public func setObject(_ object: (any CKRecordValue)?, forKey key: FieldKey) { self[key] = object }

    /// The keys of every field with a value.
    public func allKeys() -> [FieldKey] { lock.withLock { values.keys.sorted() } }

    /// The keys set since the record came from the server (or was made).
    public func changedKeys() -> [FieldKey] { lock.withLock { changed.sorted() } }

    /// Values the app wants encrypted (kept as ordinary fields here).
    public var encryptedValues: any CKRecordKeyValueSetting { self }

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
    /// never sent is created; with its change tag only its changed fields go (`update`, or
    /// `replace` when a field or the parent was cleared: CKWS clears only by replacing);
    /// `changedKeys` and `allKeys` skip the tag check, `allKeys` sending every local field.
    func wireOperation(policy: CKModifyRecordsOperation.RecordSavePolicy) -> RecordOperation {
        let all = policy == .allKeys || recordChangeTag == nil
        var (fields, cleared) = wireFields(all: all)
        let (parent, parentChanged) = parentForWire
        // Clearing a field or the parent takes a replace: an update keeps what it is not sent.
        let clears = !cleared.isEmpty || (parentChanged && parent == nil)
        let type: RecordOperationType
        switch policy {
        case .ifServerRecordUnchanged:
            type = recordChangeTag == nil ? .create : (clears ? .replace : .update)
        case .changedKeys:
            type = clears ? .forceReplace : .forceUpdate
        case .allKeys:
            // Every local key overwrites the server's; keys only the server has stay (Apple's rule).
            type = clears ? .forceReplace : .forceUpdate
        }
        let replaces = type == .replace || type == .forceReplace
        if replaces { fields = wireFields(all: true).fields }
        var wire = Record(recordName: recordID.recordName, recordType: recordType, recordChangeTag: recordChangeTag, fields: fields)
        if parentChanged || all || replaces { wire.parent = parent }
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

    // MARK: - Coding

    public class var supportsSecureCoding: Bool { true }

    /// Archives the system fields only (ID, type, change tag, dates, users, parent, share): what a
    /// CKSyncEngine app stores to save a record later without a conflict.
    public func encodeSystemFields(with coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "recordType")
        coder.encode(recordID, forKey: "recordID")
        if let recordChangeTag { coder.encode(recordChangeTag as NSString, forKey: "recordChangeTag") }
        if let creationDate { coder.encode(creationDate.timeIntervalSince1970, forKey: "creationDate") }
        if let modificationDate { coder.encode(modificationDate.timeIntervalSince1970, forKey: "modificationDate") }
        if let creatorUserRecordID { coder.encode(creatorUserRecordID, forKey: "creatorUserRecordID") }
        if let lastModifiedUserRecordID { coder.encode(lastModifiedUserRecordID, forKey: "lastModifiedUserRecordID") }
        if let share { coder.encode(share, forKey: "share") }
        if let shortGUID { coder.encode(shortGUID as NSString, forKey: "shortGUID") }
        if let parent = lock.withLock({ storedParent }) { coder.encode(parent, forKey: "parent") }
    }

    /// Archives the system fields and every value, and which are edits not saved yet.
    public func encode(with coder: NSCoder) {
        encodeSystemFields(with: coder)
        let (fields, _) = wireFields(all: true)
        if let data = try? JSONEncoder().encode(fields) { coder.encode(data as NSData, forKey: "fields") }
        let (edited, parentEdited) = lock.withLock { (changed.sorted(), parentChanged) }
        coder.encode(edited.map { $0 as NSString } as NSArray, forKey: "changedKeys")
        coder.encode(parentEdited, forKey: "parentChanged")
    }

    /// A record from an archive of ``encodeSystemFields(with:)`` (no values) or ``encode(with:)``.
    public required init?(coder: NSCoder) {
        guard let type = coder.decodeObject(of: NSString.self, forKey: "recordType"),
            let recordID = coder.decodeObject(of: ID.self, forKey: "recordID")
        else { return nil }
        self.recordType = type as String
        self.recordID = recordID
        super.init()
        func has(_ key: String) -> Bool { coder.containsValue(forKey: key) }
        recordChangeTag = has("recordChangeTag") ? coder.decodeObject(of: NSString.self, forKey: "recordChangeTag") as String? : nil
        creationDate = has("creationDate") ? Date(timeIntervalSince1970: coder.decodeDouble(forKey: "creationDate")) : nil
        modificationDate = has("modificationDate") ? Date(timeIntervalSince1970: coder.decodeDouble(forKey: "modificationDate")) : nil
        creatorUserRecordID = has("creatorUserRecordID") ? coder.decodeObject(of: ID.self, forKey: "creatorUserRecordID") : nil
        lastModifiedUserRecordID = has("lastModifiedUserRecordID") ? coder.decodeObject(of: ID.self, forKey: "lastModifiedUserRecordID") : nil
        share = has("share") ? coder.decodeObject(of: Reference.self, forKey: "share") : nil
        shortGUID = has("shortGUID") ? coder.decodeObject(of: NSString.self, forKey: "shortGUID") as String? : nil
        storedParent = has("parent") ? coder.decodeObject(of: Reference.self, forKey: "parent") : nil
        if has("fields"), let data = coder.decodeObject(of: NSData.self, forKey: "fields") as Data?,
            let fields = try? JSONDecoder().decode([String: Field].self, from: data)
        {
            for (key, field) in fields {
                if let value = RecordValues.value(of: field, in: recordID.zoneID) { values[key] = value }
            }
            if recordChangeTag != nil { serverValues = values }
        }
        // Edits that were not saved when the record was archived stay edits.
        if has("changedKeys"), let edited = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "changedKeys") as? [String] {
            changed = Set(edited)
            for key in edited { serverValues[key] = nil }
        }
        parentChanged = has("parentChanged") && coder.decodeBool(forKey: "parentChanged")
    }
}
