import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Writes what the zone batch engine decided (``BatchWrites``) into PostgreSQL inside the group
/// commit's transaction, a statement a table (a whole kind of row at once, through `unnest` or
/// `jsonb_to_recordset`), table by table in ``BatchWrites/writeOrder``.
struct PostgresBatchWrites {
    let tx: PostgresTransaction
    let zoneID: Int64

    func write(_ writes: BatchWrites, of database: DatabaseKey) async throws {
        for table in BatchWrites.writeOrder { try await write(table, of: writes, in: database) }
    }

    private func write(_ table: BatchWrites.Table, of writes: BatchWrites, in database: DatabaseKey) async throws {
        switch table {
        case .records:
            try await writeRecords(Array(writes.records.values))
        case .references:
            try await writeReferences(writes)
        case .assetLinks:
            try await writeAssetLinks(writes)
        case .claims:
            try await writeClaims(writes)
        case .shares:
            try await writeShares(writes)
        case .participants:
            let rows = PostgresShareRows(tx: tx)
            for (share, participants) in writes.participants where writes.shares[share] != .some(nil) {
                try await rows.replaceParticipants(participants, share: share, zoneID: zoneID, replacing: false)
            }
        case .sharedZoneFeed:
            guard !writes.feed.isEmpty else { return }
            let feed = writes.feed.map { ($0.key, $0.value) }
            try await tx.execute("""
                INSERT INTO shared_zone_feed (user_record_name, zone_id, seq, visible)
                SELECT u, \(zoneID), s, v FROM unnest(\(feed.map(\.0))::text[], \(feed.map(\.1.seq))::bigint[], \(feed.map(\.1.visible))::boolean[]) AS f(u, s, v)
                ON CONFLICT (user_record_name, zone_id) DO UPDATE SET seq = EXCLUDED.seq, visible = EXCLUDED.visible
                """)
        case .shareCoverage:
            guard !writes.coverage.isEmpty else { return }
            let coverage = writes.coverage.map { ($0.key, $0.value) }
            try await tx.execute("""
                INSERT INTO share_coverage (zone_id, share_name, record_name, seq)
                SELECT \(zoneID), s, r, q FROM unnest(\(coverage.map(\.0.shareName))::text[], \(coverage.map(\.0.recordName))::text[],
                    \(coverage.map(\.1))::bigint[]) AS c(s, r, q)
                ON CONFLICT (zone_id, share_name, record_name) DO UPDATE SET seq = EXCLUDED.seq
                """)
        case .schemaFields:
            guard !writes.newFields.isEmpty else { return }
            let fields = writes.newFields
            try await tx.execute("""
                INSERT INTO schema_fields (container, environment, record_type, field_name, field_type)
                SELECT \(database.container), \(database.environment.rawValue), t, f, y
                FROM unnest(\(fields.map(\.recordType))::text[], \(fields.map(\.fieldName))::text[], \(fields.map(\.type.rawValue))::text[]) AS n(t, f, y)
                ON CONFLICT DO NOTHING
                """)
        case .quota:
            if let used = writes.quotaUsed { try await PostgresQuotaLedger.save(used: used, of: database, in: tx) }
        }
    }

    private func writeReferences(_ writes: BatchWrites) async throws {
        guard !writes.references.isEmpty else { return }
        let sources = writes.references.keys.sorted()
        try await tx.execute("DELETE FROM record_references WHERE zone_id = \(zoneID) AND source_name = ANY(\(sources))")
        let pairs = writes.references.flatMap { source, targets in targets.map { (source, $0) } }
        guard !pairs.isEmpty else { return }
        try await tx.execute("""
            INSERT INTO record_references (zone_id, source_name, target_name)
            SELECT \(zoneID), s, t FROM unnest(\(pairs.map(\.0))::text[], \(pairs.map(\.1))::text[]) AS p(s, t)
            ON CONFLICT DO NOTHING
            """)
    }

    /// Every record row in one upsert.
    private func writeRecords(_ records: [BatchWrites.WrittenRecord]) async throws {
        guard !records.isEmpty else { return }
        let json = String(decoding: try Self.rowEncoder.encode(records.map(RecordRow.init)), as: UTF8.self)
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

    private func writeAssetLinks(_ writes: BatchWrites) async throws {
        let unlinked = writes.assetLinks.filter { !$0.value }.map(\.key)
        if !unlinked.isEmpty {
            try await tx.execute("""
                DELETE FROM record_assets WHERE zone_id = \(zoneID)
                    AND (record_name, checksum) IN (SELECT * FROM unnest(\(unlinked.map(\.recordName))::text[], \(unlinked.map(\.checksum))::text[]))
                """)
        }
        let linked = writes.assetLinks.filter(\.value).map(\.key)
        if !linked.isEmpty {
            try await tx.execute("""
                INSERT INTO record_assets (zone_id, record_name, checksum)
                SELECT \(zoneID), r, c FROM unnest(\(linked.map(\.recordName))::text[], \(linked.map(\.checksum))::text[]) AS l(r, c)
                ON CONFLICT DO NOTHING
                """)
        }
    }

    private func writeClaims(_ writes: BatchWrites) async throws {
        for claimed in writes.claims.values {
            let claim = claimed.claim
            // A receipt's purge takes no writers' lock: one that went since the batch read it fails
            // the batch, to be tried again (it then meets the refusal the engine gives a missing receipt).
            let updated = try await tx.execute("""
                UPDATE asset_uploads SET claimed_zone = \(claim.zoneID), claimed_record = \(claim.recordName), claimed_field = \(claim.fieldName)
                WHERE upload_id = \(claimed.uploadID) AND checksum = \(claimed.checksum)
                    AND (claimed_zone IS NULL OR (claimed_zone = \(claim.zoneID) AND claimed_record = \(claim.recordName)
                        AND claimed_field = \(claim.fieldName)))
                RETURNING 1
                """)
            let kept = try await tx.execute("UPDATE blobs SET unreferenced_since = NULL WHERE checksum = \(claimed.checksum) RETURNING 1")
            guard updated == 1, kept == 1 else { throw StoreError(.busy, "a receipt or its blob went while the batch ran") }
        }
    }

    /// Share rows, deleted ones first (with the participants of every share whose list is
    /// replaced: the new lists follow in ``BatchWrites/Table/participants``).
    private func writeShares(_ writes: BatchWrites) async throws {
        let deleted = writes.shares.filter { $0.value == nil }.keys.sorted()
        let replaced = Set(writes.participants.keys).union(deleted).sorted()
        if !replaced.isEmpty {
            try await tx.execute("DELETE FROM share_participants WHERE zone_id = \(zoneID) AND share_name = ANY(\(replaced))")
        }
        if !deleted.isEmpty {
            try await tx.execute("DELETE FROM shares WHERE zone_id = \(zoneID) AND record_name = ANY(\(deleted))")
        }
        for case let (_, row?) in writes.shares {
            try await tx.execute("""
                INSERT INTO shares (zone_id, record_name, root_name, short_guid, public_permission)
                VALUES (\(zoneID), \(row.recordName), \(row.rootName), \(row.shortGUID), \(row.publicPermission.rawValue))
                ON CONFLICT (zone_id, record_name) DO UPDATE SET
                    root_name = EXCLUDED.root_name, short_guid = EXCLUDED.short_guid, public_permission = EXCLUDED.public_permission
                """)
        }
    }

    private static let rowEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return encoder
    }()

    /// One record row as JSON (keys in snake case, the columns' names); `fields` is the fields' JSON text.
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

        init(_ written: BatchWrites.WrittenRecord) {
            let record = written.record
            recordName = record.name
            recordType = record.type
            fields = written.json
            fieldsSize = Int64(written.json.utf8.count)
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
