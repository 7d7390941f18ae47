import Foundation
import StratusModel

/// How a record is archived: Apple's keys (`RecordType`, `RecordID`, `ETag`, `RecordCtime`, …;
/// the values in a `ValueStore`), so an archive Apple's framework wrote decodes here and one
/// written here names what Apple's names. Archives Stratus wrote before (its own keys, the
/// values as wire JSON under `fields`) still decode.
extension CKRecord {
    /// The system fields under Apple's keys; a share's short GUID under Stratus's own.
    func writeSystemFields(to coder: NSCoder) {
        coder.encode(recordType as NSString, forKey: "RecordType")
        coder.encode(recordID, forKey: "RecordID")
        if let recordChangeTag { coder.encode(recordChangeTag as NSString, forKey: "ETag") }
        coder.encode(recordChangeTag != nil, forKey: "KnownToServer")
        if let creationDate { coder.encode(creationDate as NSDate, forKey: "RecordCtime") }
        if let modificationDate { coder.encode(modificationDate as NSDate, forKey: "RecordMtime") }
        if let creatorUserRecordID { coder.encode(creatorUserRecordID, forKey: "CreatorUserRecordID") }
        if let lastModifiedUserRecordID { coder.encode(lastModifiedUserRecordID, forKey: "LastModifiedUserRecordID") }
        if let share { coder.encode(share, forKey: "ShareReference") }
        if let shortGUID { coder.encode(shortGUID as NSString, forKey: "StratusShortGUID") }
        let state = archivedState
        if let parent = state.parent { coder.encode(parent, forKey: "ParentReference") }
        coder.encode(state.parentChanged, forKey: "HasUpdatedParentReference")
    }

    func readSystemFields(from coder: NSCoder) {
        recordChangeTag = coder.string("ETag", "recordChangeTag")
        creationDate = coder.date("RecordCtime", secondsSince1970: "creationDate")
        modificationDate = coder.date("RecordMtime", secondsSince1970: "modificationDate")
        creatorUserRecordID = coder.object(ID.self, "CreatorUserRecordID", "creatorUserRecordID")
        lastModifiedUserRecordID = coder.object(ID.self, "LastModifiedUserRecordID", "lastModifiedUserRecordID")
        share = coder.object(Reference.self, "ShareReference", "share")
        shortGUID = coder.string("StratusShortGUID", "shortGUID")
        let parent = coder.object(Reference.self, "ParentReference", "parent")
        let parentChanged = ["HasUpdatedParentReference", "parentChanged"].contains { coder.containsValue(forKey: $0) && coder.decodeBool(forKey: $0) }
        restoreArchived(parent: parent, changed: parentChanged)
    }

    /// Every value in a `ValueStore` (as Apple archives them: the values, the server's values of
    /// the edited keys — `NSNull` where there was none — and the edited keys).
    func writeValues(to coder: NSCoder) {
        let state = archivedState
        var original: [String: (any CKRecordValue)?] = [:]
        for key in state.changed { original[key] = state.server[key] }
        coder.encode(ArchivedValueStore(values: state.values, originalValues: original, changedKeys: state.changed), forKey: "ValueStore")
    }

    /// The values of any of the three layouts: Apple's value store, Apple's earlier flat layout,
    /// or Stratus's earlier wire JSON.
    func readValues(from coder: NSCoder) {
        let decoded: (values: [String: any CKRecordValue], original: [String: (any CKRecordValue)?], changed: Set<String>)
        if let store = coder.object(ArchivedValueStore.self, "ValueStore") {
            decoded = (store.values, store.originalValues, store.changedKeys)
        } else if coder.containsValue(forKey: "RecordValues") {
            decoded = ArchivedValueStore.decodeValues(from: coder)
        } else if let data = coder.data("fields") {
            decoded = Self.legacyValues(data, changedKeys: coder.object(ofClasses: [NSArray.self, NSString.self], "changedKeys") as? [String], in: recordID.zoneID)
        } else {
            return
        }
        var values: [FieldKey: any CKRecordValue] = [:]
        for (key, value) in decoded.values { values[key] = RecordValues.normalized(value) }
        // The server's values: what a record the server sent held, but the edited keys' originals.
        var server: [FieldKey: any CKRecordValue] = [:]
        if recordChangeTag != nil {
            server = values
            for key in decoded.changed { server[key] = decoded.original[key] ?? nil }
        }
        restoreArchived(values: values, server: server, changed: decoded.changed)
    }

    /// Values as Stratus archived them before: the wire's fields as JSON, and the edited keys.
    private static func legacyValues(
        _ data: Data, changedKeys: [String]?, in zoneID: CKRecordZone.ID
    ) -> (values: [String: any CKRecordValue], original: [String: (any CKRecordValue)?], changed: Set<String>) {
        var values: [String: any CKRecordValue] = [:]
        for (key, field) in (try? JSONDecoder().decode([String: Field].self, from: data)) ?? [:] {
            if let value = RecordValues.value(of: field, in: zoneID) { values[key] = value }
        }
        // Edits that were not saved when the record was archived stay edits (their originals unknown).
        return (values, [:], Set(changedKeys ?? []))
    }
}

extension ArchivedValueStore {
    /// A store to archive.
    convenience init(values: [String: any CKRecordValue], originalValues: [String: (any CKRecordValue)?], changedKeys: Set<String>) {
        self.init(stored: (values, originalValues, changedKeys))
    }
}
