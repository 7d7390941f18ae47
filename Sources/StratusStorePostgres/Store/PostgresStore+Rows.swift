import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Reading result rows as Swift values, errors translated into ``StoreError``.
extension PostgresStore {
    /// Every row of `rows`, decoded by `decode`.
    func all<T>(_ rows: PostgresRowSequence, _ decode: (PostgresRow) throws -> T) async throws(StoreError) -> [T] {
        do {
            var values: [T] = []
            for try await row in rows { values.append(try decode(row)) }
            return values
        } catch {
            throw Self.translate(error)
        }
    }

    /// The first row of `rows` decoded by `decode`, or `nil` when there is none.
    package func first<T>(_ rows: PostgresRowSequence, _ decode: (PostgresRow) throws -> T) async throws(StoreError) -> T? {
        do {
            for try await row in rows { return try decode(row) }
            return nil
        } catch {
            throw Self.translate(error)
        }
    }
}

/// Row mapping: the column lists the store selects, and how a row becomes a stored value.
extension PostgresStore {
    static let zoneColumns = "id, name, atomic, created_seq, last_seq, deleted_seq, compacted_below_seq, deleted_reason"

    static let recordColumns = """
        record_name, record_type, fields::text, created_at, created_by, created_device, \
        modified_at, modified_by, modified_device, parent_name, share_name, short_guid, seq, deleted
        """

    /// ``recordColumns`` of the table aliased `r`.
    static let qualifiedRecordColumns = recordColumns.split(separator: ",")
        .map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    /// A zone from a row whose first columns are ``zoneColumns``, in order.
    static func zone(from row: PostgresRow) throws -> StoredZone {
        let (id, name, atomic, createdSeq, lastSeq, deletedSeq, compactedBelow, reason) =
            try row.decode((Int64, String, Bool, Int64, Int64, Int64?, Int64, String?).self)
        return StoredZone(
            id: id, name: name, atomic: atomic, createdSeq: createdSeq, lastSeq: lastSeq, deletedSeq: deletedSeq,
            compactedBelowSeq: compactedBelow,
            deletionReason: deletedSeq == nil ? nil : reason.flatMap(ZoneDeletionReason.init(rawValue:)) ?? .deleted
        )
    }

    /// A record from the ``recordColumns`` starting at column `offset`.
    static func record(from row: PostgresRow, at offset: Int = 0) throws -> StoredRecord {
        let cells = row.makeRandomAccess()
        func cell<T: PostgresDecodable>(_ index: Int, _ type: T.Type = T.self) throws -> T { try cells[offset + index].decode(T.self) }
        let fieldsJSON: String = try cell(2)
        let fields = try StoredFields.decode(fieldsJSON)
        return StoredRecord(
            name: try cell(0), type: try cell(1), fields: fields,
            created: RecordStamp(timestamp: try cell(3), userRecordName: try cell(4), deviceID: try cell(5)),
            modified: RecordStamp(timestamp: try cell(6), userRecordName: try cell(7), deviceID: try cell(8)),
            parentName: try cell(9), shareName: try cell(10), shortGUID: try cell(11), seq: try cell(12), deleted: try cell(13)
        )
    }

    /// The statement that reads the live zone of that key.
    static func zoneQuery(_ key: ZoneKey) -> PostgresQuery {
        let database = key.database
        return """
            SELECT \(unescaped: zoneColumns) FROM zones
            WHERE container = \(database.container) AND environment = \(database.environment.rawValue)
                AND scope = \(database.scope.rawValue) AND owner = \(database.owner) AND name = \(key.name) AND deleted_seq IS NULL
            """
    }

    /// The live zone of that key, read inside a transaction.
    static func fetchZone(_ key: ZoneKey, in tx: PostgresTransaction) async throws -> StoredZone? {
        try await tx.first(zoneQuery(key), zone(from:))
    }

    /// A record row (tombstones included), read inside a transaction.
    static func fetchRecord(_ name: String, zoneID: Int64, in tx: PostgresTransaction) async throws -> StoredRecord? {
        try await tx.first(
            "SELECT \(unescaped: recordColumns) FROM records WHERE zone_id = \(zoneID) AND record_name = \(name)"
        ) { try record(from: $0) }
    }

    /// The global change sequence's current value (no lock: a reader's view).
    static func currentSequence(in tx: PostgresTransaction) async throws -> Int64 {
        try await tx.first("SELECT value FROM change_sequence WHERE id = 1") { try $0.decode(Int64.self) } ?? 0
    }

    /// The live zone of that key, outside any transaction.
    func readZone(_ key: ZoneKey) async throws(StoreError) -> StoredZone? {
        // One statement: no snapshot transaction needed (nor its two round trips).
        try await first(query(Self.zoneQuery(key)), Self.zone(from:))
    }
}
