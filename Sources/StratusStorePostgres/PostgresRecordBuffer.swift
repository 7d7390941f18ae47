import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// The records one zone batch reads and writes, so that a batch of 200 costs two statements,
/// not 400: the names the batch touches are read in one statement, every row it changes is kept
/// here (later reads in the batch see it) and written in one upsert by ``flush(in:)``, which runs
/// before any SQL that reads `records` itself and at the end of the batch.
final class PostgresRecordBuffer {
    let zoneID: Int64
    /// Rows as the batch sees them; `nil` for a name known to have no row.
    private var known: [String: StoredRecord?] = [:]
    /// Rows changed and not yet written, with their fields' JSON.
    private var pending: [String: (record: StoredRecord, json: String)] = [:]
    private let encoder = JSONEncoder()

    init(zoneID: Int64) {
        self.zoneID = zoneID
    }

    /// Reads the rows of `names` in one statement.
    func preload(_ names: Set<String>, in tx: PostgresTransaction) async throws {
        let missing = names.filter { known[$0] == nil }
        guard !missing.isEmpty else { return }
        let rows = try await tx.all("""
            SELECT \(unescaped: PostgresStore.recordColumns) FROM records WHERE zone_id = \(zoneID) AND record_name = ANY(\(missing.sorted()))
            """) { try PostgresStore.record(from: $0) }
        for name in missing { known[name] = .some(nil) }
        for record in rows { known[record.name] = record }
    }

    /// The row of `name` (tombstones included) as the batch left it.
    func record(_ name: String, in tx: PostgresTransaction) async throws -> StoredRecord? {
        if let row = known[name] { return row }
        let row = try await PostgresStore.fetchRecord(name, zoneID: zoneID, in: tx)
        known[name] = .some(row)
        return row
    }

    /// Keeps a changed row; `json` is its fields encoded, or `nil` to encode them here.
    func write(_ record: StoredRecord, json: String?) throws {
        let json = try json ?? String(decoding: encoder.encode(record.fields), as: UTF8.self)
        known[record.name] = .some(record)
        pending[record.name] = (record, json)
    }

    /// Writes every kept row in one upsert.
    func flush(in tx: PostgresTransaction) async throws {
        guard !pending.isEmpty else { return }
        let rows = pending.values.map { RecordRow($0.record, json: $0.json) }
        pending = [:]
        let json = String(decoding: try Self.rowEncoder.encode(rows), as: UTF8.self)
        try await tx.execute("""
            INSERT INTO records (zone_id, record_name, record_type, fields, fields_size, created_at, created_by, created_device,
                modified_at, modified_by, modified_device, parent_name, share_name, short_guid, seq, deleted)
            SELECT \(zoneID), r.record_name, r.record_type, CAST(r.fields AS jsonb), r.fields_size, r.created_at, r.created_by,
                r.created_device, r.modified_at, r.modified_by, r.modified_device, r.parent_name, r.share_name, r.short_guid, r.seq, r.deleted
            FROM jsonb_to_recordset(CAST(\(json) AS jsonb)) AS r(record_name TEXT, record_type TEXT, fields TEXT, fields_size BIGINT,
                created_at BIGINT, created_by TEXT, created_device TEXT, modified_at BIGINT, modified_by TEXT, modified_device TEXT,
                parent_name TEXT, share_name TEXT, short_guid TEXT, seq BIGINT, deleted BOOLEAN)
            ON CONFLICT (zone_id, record_name) DO UPDATE SET
                record_type = EXCLUDED.record_type, fields = EXCLUDED.fields, fields_size = EXCLUDED.fields_size,
                created_at = EXCLUDED.created_at, created_by = EXCLUDED.created_by, created_device = EXCLUDED.created_device,
                modified_at = EXCLUDED.modified_at, modified_by = EXCLUDED.modified_by, modified_device = EXCLUDED.modified_device,
                parent_name = EXCLUDED.parent_name, share_name = EXCLUDED.share_name, short_guid = EXCLUDED.short_guid,
                seq = EXCLUDED.seq, deleted = EXCLUDED.deleted
            """)
    }

    private static let rowEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    /// One row as JSON (keys in snake case, the columns' names); `fields` is the fields' JSON text.
    private struct RecordRow: Encodable {
        var recordName: String
        var recordType: String
        var fields: String
        var fieldsSize: Int64
        var createdAt: Int64
        var createdBy: String?
        var createdDevice: String?
        var modifiedAt: Int64
        var modifiedBy: String?
        var modifiedDevice: String?
        var parentName: String?
        var shareName: String?
        var shortGuid: String?
        var seq: Int64
        var deleted: Bool

        init(_ record: StoredRecord, json: String) {
            recordName = record.name
            recordType = record.type
            fields = json
            fieldsSize = Int64(json.utf8.count)
            createdAt = record.created.timestamp
            createdBy = record.created.userRecordName
            createdDevice = record.created.deviceID
            modifiedAt = record.modified.timestamp
            modifiedBy = record.modified.userRecordName
            modifiedDevice = record.modified.deviceID
            parentName = record.parentName
            shareName = record.shareName
            shortGuid = record.shortGUID
            seq = record.seq
            deleted = record.deleted
        }
    }
}
