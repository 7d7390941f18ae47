import Foundation
import GRDB
import StratusModel
import StratusStore

/// The zone batch engine's reads (``BatchRows``) on SQLite: each a cached statement on the
/// writer's connection, inside the group commit's transaction, answered on demand (or, in tests,
/// behind ``ReadAheadBatchRows``).
struct SQLiteBatchRows: BatchRows {
    let db: Database
    let zoneID: Int64

    func record(_ name: String) throws -> BatchRecordRow? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(SQLiteStore.recordColumns), length(CAST(fields AS BLOB)) AS fields_bytes FROM records WHERE zone_id = ? AND record_name = ?"
        )
        guard let row = try Row.fetchOne(statement, arguments: [zoneID, name]) else { return nil }
        return BatchRecordRow(record: try SQLiteStore.record(from: row), fieldsBytes: row["fields_bytes"])
    }

    func referenceSources(of target: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT source_name FROM record_references WHERE zone_id = ? AND target_name = ?"),
            arguments: [zoneID, target]
        )
    }

    func children(of name: String) throws -> [String] {
        try String.fetchAll(
            db.cachedStatement(sql: "SELECT record_name FROM records WHERE zone_id = ? AND parent_name = ?"),
            arguments: [zoneID, name]
        )
    }

    func share(named name: String) throws -> ShareRow? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT record_name, root_name, short_guid, public_permission FROM shares WHERE zone_id = ? AND record_name = ?"
            ),
            arguments: [zoneID, name]
        ).map(ShareRows.shareRow(from:))
    }

    func shares(hierarchy: Bool) throws -> [ShareRow] {
        let kind = hierarchy ? "root_name IS NOT NULL" : "root_name IS NULL"
        return try Row.fetchAll(
            db.cachedStatement(
                sql: "SELECT record_name, root_name, short_guid, public_permission FROM shares WHERE zone_id = ? AND \(kind) ORDER BY record_name"
            ),
            arguments: [zoneID]
        ).map(ShareRows.shareRow(from:))
    }

    func participants(of share: String) throws -> [StoredParticipant] {
        try ShareRows(db: db).participants(of: share, zoneID: zoneID)
    }

    func sharesAccepted(by user: String) throws -> Set<String> {
        try Set(String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT share_name FROM share_participants
                    WHERE zone_id = ? AND user_record_name = ? AND status = 'ACCEPTED' AND role != 'OWNER'
                    """
            ),
            arguments: [zoneID, user]
        ))
    }

    func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String] {
        var types: [SchemaFieldKey: String] = [:]
        for field in fields {
            let type = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT field_type FROM schema_fields
                        WHERE container = ? AND environment = ? AND record_type = ? AND field_name = ?
                        """
                ),
                arguments: [database.container, database.environment.rawValue, field.recordType, field.fieldName]
            )
            if let type { types[SchemaFieldKey(field)] = type }
        }
        return types
    }

    func quota(of database: DatabaseKey) throws -> QuotaRow? {
        try QuotaLedger.load(for: database, in: db)
    }

    func upload(_ uploadID: String) throws -> UploadRow? {
        try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT checksum, claimed_zone, claimed_record, claimed_field FROM asset_uploads WHERE upload_id = ?"
            ),
            arguments: [uploadID]
        ).map { row in
            UploadRow(
                checksum: row["checksum"],
                claim: UploadClaim(zoneID: row["claimed_zone"], recordName: row["claimed_record"], fieldName: row["claimed_field"])
            )
        }
    }

    func blobIsStored(_ checksum: String) throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM blobs WHERE checksum = ?)"), arguments: [checksum]) ?? false
    }
}
