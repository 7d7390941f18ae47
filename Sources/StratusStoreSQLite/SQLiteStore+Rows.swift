import Foundation
import GRDB
import StratusModel
import StratusStore

/// Row mapping: the column lists the store selects, and how a row becomes a stored value.
extension SQLiteStore {
    static let zoneColumns = "id, name, atomic, created_seq, last_seq, deleted_seq, compacted_below_seq, deleted_reason"

    static let recordColumns = """
        record_name, record_type, fields, created_at, created_by, created_device, \
        modified_at, modified_by, modified_device, parent_name, share_name, short_guid, seq, deleted
        """

    /// A zone from a row whose first columns are ``zoneColumns``, in order.
    static func zone(from row: Row) -> StoredZone {
        let deletedSeq: Int64? = row[5]
        let reason: String? = row[7]
        return StoredZone(
            id: row[0], name: row[1], atomic: row[2], createdSeq: row[3], lastSeq: row[4],
            deletedSeq: deletedSeq, compactedBelowSeq: row[6],
            deletionReason: deletedSeq == nil ? nil : reason.flatMap(ZoneDeletionReason.init(rawValue:)) ?? .deleted
        )
    }

    static func record(from row: Row) throws -> StoredRecord {
        let fieldsJSON: String = row[2]
        let fields = try StoredFields.decode(fieldsJSON)
        return StoredRecord(
            name: row[0], type: row[1], fields: fields,
            created: RecordStamp(timestamp: row[3], userRecordName: row[4], deviceID: row[5]),
            modified: RecordStamp(timestamp: row[6], userRecordName: row[7], deviceID: row[8]),
            parentName: row[9], shareName: row[10], shortGUID: row[11], seq: row[12], deleted: row[13]
        )
    }

    /// The live zone of that key, read inside a transaction.
    static func fetchZone(_ key: ZoneKey, in db: Database) throws -> StoredZone? {
        let statement = try db.cachedStatement(
            sql: """
                SELECT \(zoneColumns) FROM zones
                WHERE container = ? AND environment = ? AND scope = ? AND owner = ? AND name = ? AND deleted_seq IS NULL
                """
        )
        let database = key.database
        return try Row.fetchOne(
            statement,
            arguments: [database.container, database.environment.rawValue, database.scope.rawValue, database.owner, key.name]
        ).map(zone(from:))
    }

    /// The global change sequence's current value.
    static func currentSequence(in db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT value FROM change_sequence WHERE id = 1")) ?? 0
    }

    static func setSequence(_ value: Int64, in db: Database) throws {
        try db.cachedStatement(sql: "UPDATE change_sequence SET value = ? WHERE id = 1").execute(arguments: [value])
    }
}
