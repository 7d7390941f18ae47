import GRDB
import StratusModel

/// DELETE_SELF references inside a zone batch: `record_references` says which records point at
/// which, kept as records are saved and deleted, so deleting a record deletes the records that
/// point at it with DELETE_SELF, and theirs in turn, in the same commit, without reading the zone.
extension BatchApplier {
    /// Re-indexes a record's DELETE_SELF references after a save (`record`) or a delete (`nil`).
    /// Records without such references, before or after, cost no statement.
    func updateReferences(of record: StoredRecord?, before: StoredRecord?, zoneID: Int64) throws {
        let old = before?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        let new = record?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        guard old != new, let source = record?.name ?? before?.name else { return }
        if !old.isEmpty {
            try db.cachedStatement(sql: "DELETE FROM record_references WHERE zone_id = ? AND source_name = ?")
                .execute(arguments: [zoneID, source])
        }
        for target in new.sorted() {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO record_references (zone_id, target_name, source_name) VALUES (?, ?, ?)")
                .execute(arguments: [zoneID, target, source])
        }
    }

    /// Deletes every live record whose DELETE_SELF reference points at `name`, transitively.
    func deleteSources(of name: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws {
        var targets = [name]
        while let target = targets.popLast() {
            let sources = try String.fetchAll(
                db.cachedStatement(sql: "SELECT source_name FROM record_references WHERE zone_id = ? AND target_name = ?"),
                arguments: [zoneID, target]
            )
            for source in sources {
                guard let record = try SQLiteStore.fetchRecord(source, zoneID: zoneID, in: db, decoder: decoder), !record.deleted else {
                    continue
                }
                try delete(record, zoneID: zoneID, stamp: stamp, seq: &seq)
                targets.append(source)
            }
        }
    }
}
