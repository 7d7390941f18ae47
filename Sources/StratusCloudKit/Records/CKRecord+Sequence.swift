import Foundation

extension CKRecord {
    /// The keys of a record's system fields, as Apple spells them (its schema's implicit
    /// fields): for sort descriptors and predicates (`NSSortDescriptor(key:
    /// CKRecord.SystemFieldKey.creationDate, ascending: false)`) and desired keys.
    public enum SystemFieldKey {
        public static let recordID: CKRecord.FieldKey = "___recordID"
        public static let creatorUserRecordID: CKRecord.FieldKey = "___createdBy"
        public static let creationDate: CKRecord.FieldKey = "___createTime"
        public static let lastModifiedUserRecordID: CKRecord.FieldKey = "___modifiedBy"
        public static let modificationDate: CKRecord.FieldKey = "___modTime"
        public static let parent: CKRecord.FieldKey = "___parent"
        public static let share: CKRecord.FieldKey = "___share"
    }
}

/// Walks a record's fields, `(key, value)` in key order (`for (key, value) in record`).
public struct CKRecordKeyValueIterator: IteratorProtocol {
    public typealias Element = (CKRecord.FieldKey, any CKRecordValueProtocol)

    private var fields: IndexingIterator<[(CKRecord.FieldKey, any CKRecordValueProtocol)]>

    init(_ fields: [(CKRecord.FieldKey, any CKRecordValueProtocol)]) {
        self.fields = fields.makeIterator()
    }

    public mutating func next() -> Element? { fields.next() }
}

extension CKRecord: Sequence {
    public typealias Element = (CKRecord.FieldKey, any CKRecordValueProtocol)
    public typealias Iterator = CKRecordKeyValueIterator

    /// The record's fields as they are now (a later edit does not change a walk under way).
    public func makeIterator() -> CKRecordKeyValueIterator {
        CKRecordKeyValueIterator(allKeys().compactMap { key in object(forKey: key).map { (key, $0) } })
    }
}
