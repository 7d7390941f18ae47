import GRDB
import StratusModel
import StratusStore

/// Writes what the zone batch engine decided (``BatchWrites``) into SQLite, inside the group
/// commit's transaction, table by table in ``BatchWrites/writeOrder``.
struct SQLiteBatchWrites {
    let db: Database
    let zoneID: Int64

    func write(_ writes: BatchWrites, of database: DatabaseKey) throws {
        for table in BatchWrites.writeOrder { try write(table, of: writes, in: database) }
    }

    private func write(_ table: BatchWrites.Table, of writes: BatchWrites, in database: DatabaseKey) throws {
        switch table {
        case .records:
            try writeRecords(writes)
        case .references:
            for (source, targets) in writes.references {
                try db.cachedStatement(sql: "DELETE FROM record_references WHERE zone_id = ? AND source_name = ?").execute(arguments: [zoneID, source])
                for target in targets.sorted() {
                    try db.cachedStatement(sql: "INSERT OR IGNORE INTO record_references (zone_id, target_name, source_name) VALUES (?, ?, ?)")
                        .execute(arguments: [zoneID, target, source])
                }
            }
        case .assetLinks:
            for (link, linked) in writes.assetLinks {
                let sql = linked
                    ? "INSERT OR IGNORE INTO record_assets (zone_id, record_name, checksum) VALUES (?, ?, ?)"
                    : "DELETE FROM record_assets WHERE zone_id = ? AND record_name = ? AND checksum = ?"
                try db.cachedStatement(sql: sql).execute(arguments: [zoneID, link.recordName, link.checksum])
            }
        case .claims:
            for claimed in writes.claims.values {
                try db.cachedStatement(sql: "UPDATE asset_uploads SET claimed_zone = ?, claimed_record = ?, claimed_field = ? WHERE upload_id = ?")
                    .execute(arguments: [claimed.claim.zoneID, claimed.claim.recordName, claimed.claim.fieldName, claimed.uploadID])
                try db.cachedStatement(sql: "UPDATE blobs SET unreferenced_since = NULL WHERE checksum = ?").execute(arguments: [claimed.checksum])
            }
        case .shares:
            try writeShares(writes)
        case .participants:
            let rows = ShareRows(db: db)
            for (share, participants) in writes.participants where writes.shares[share] != .some(nil) {
                try rows.replaceParticipants(participants, share: share, zoneID: zoneID)
            }
        case .sharedZoneFeed:
            for (user, entry) in writes.feed {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO shared_zone_feed (user_record_name, zone_id, seq, visible) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [user, zoneID, entry.seq, entry.visible])
            }
        case .shareCoverage:
            for (key, seq) in writes.coverage {
                try db.cachedStatement(sql: "INSERT OR REPLACE INTO share_coverage (zone_id, share_name, record_name, seq) VALUES (?, ?, ?, ?)")
                    .execute(arguments: [zoneID, key.shareName, key.recordName, seq])
            }
        case .schemaFields:
            for field in writes.newFields {
                try db.cachedStatement(
                    sql: "INSERT OR IGNORE INTO schema_fields (container, environment, record_type, field_name, field_type) VALUES (?, ?, ?, ?, ?)"
                ).execute(arguments: [database.container, database.environment.rawValue, field.recordType, field.fieldName, field.type.rawValue])
            }
        case .quota:
            if let used = writes.quotaUsed { try QuotaLedger.save(used: used, of: database, in: db) }
        }
    }

    private func writeRecords(_ writes: BatchWrites) throws {
        let insertRecord = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO records (zone_id, record_name, record_type, fields, created_at, created_by,
                    created_device, modified_at, modified_by, modified_device, parent_name, share_name, short_guid, seq, deleted)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        )
        for (record, json) in writes.records.values.map({ ($0.record, $0.json) }) {
            try insertRecord.execute(arguments: [
                zoneID, record.name, record.type, json,
                record.created.timestamp, record.created.userRecordName, record.created.deviceID,
                record.modified.timestamp, record.modified.userRecordName, record.modified.deviceID,
                record.parentName, record.shareName, record.shortGUID, record.seq, record.deleted,
            ])
        }
    }

    /// Share rows, deleted ones first.
    private func writeShares(_ writes: BatchWrites) throws {
        for (name, row) in writes.shares where row == nil {
            try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ? AND share_name = ?", arguments: [zoneID, name])
            try db.execute(sql: "DELETE FROM shares WHERE zone_id = ? AND record_name = ?", arguments: [zoneID, name])
        }
        for case let (_, row?) in writes.shares {
            try db.execute(
                sql: """
                    INSERT INTO shares (zone_id, record_name, root_name, short_guid, public_permission) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT (zone_id, record_name) DO UPDATE SET
                        root_name = excluded.root_name, short_guid = excluded.short_guid, public_permission = excluded.public_permission
                    """,
                arguments: [zoneID, row.recordName, row.rootName, row.shortGUID, row.publicPermission.rawValue]
            )
        }
    }
}
