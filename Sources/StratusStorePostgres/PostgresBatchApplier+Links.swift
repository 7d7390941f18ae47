import PostgresNIO
import StratusModel
import StratusStore

/// A record that changed parent in a batch.
struct PostgresParentMove {
    var name: String
    var from: String?
    var to: String?
}

/// What a zone batch keeps beside the records, as the SQLite store does: DELETE_SELF references
/// (`record_references`, so deleting a target deletes its sources transitively), asset claims and
/// holdings (`asset_uploads`, `record_assets`), and hierarchy share coverage (`share_coverage`).
extension PostgresBatchApplier {
    // MARK: - References

    /// Re-indexes a record's DELETE_SELF references after a save (`record`) or a delete (`nil`).
    func updateReferences(of record: StoredRecord?, before: StoredRecord?, zoneID: Int64) async throws {
        let old = before?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        let new = record?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        guard old != new, let source = record?.name ?? before?.name else { return }
        if !old.isEmpty {
            try await tx.execute("DELETE FROM record_references WHERE zone_id = \(zoneID) AND source_name = \(source)")
        }
        guard !new.isEmpty else { return }
        try await tx.execute("""
            INSERT INTO record_references (zone_id, target_name, source_name)
            SELECT \(zoneID), target, \(source) FROM unnest(\(new.sorted())::text[]) AS target
            ON CONFLICT DO NOTHING
            """)
    }

    /// Deletes every live record whose DELETE_SELF reference points at `name`, transitively.
    func deleteSources(of name: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) async throws {
        var targets = [name]
        while let target = targets.popLast() {
            let sources = try await tx.all(
                "SELECT source_name FROM record_references WHERE zone_id = \(zoneID) AND target_name = \(target)"
            ) { try $0.decode(String.self) }
            for source in sources {
                guard let record = try await row(source), !record.deleted else { continue }
                try await delete(record, zoneID: zoneID, stamp: stamp, seq: &seq)
                targets.append(source)
            }
        }
    }

    // MARK: - Assets

    /// Claims the write's receipts and checks its receipt-less assets against the record as stored.
    func assetFailure(of write: RecordWrite, live: StoredRecord?, zoneID: Int64) async throws -> WriteFailure? {
        if !write.unclaimedAssets.isEmpty {
            let held = live?.fields.assetChecksums ?? []
            if let stranger = write.unclaimedAssets.subtracting(held).sorted().first {
                return .assetRefused(
                    "asset \(stranger) is not on record '\(write.name)': attach new bytes with the receipt of assets/upload or assets/rereference"
                )
            }
        }
        for claim in write.assetClaims {
            let claimed = try await tx.execute("""
                UPDATE asset_uploads SET claimed_zone = \(zoneID), claimed_record = \(write.name), claimed_field = \(claim.fieldName)
                WHERE upload_id = \(claim.uploadID) AND checksum = \(claim.checksum)
                    AND (claimed_zone IS NULL OR (claimed_zone = \(zoneID) AND claimed_record = \(write.name)
                        AND claimed_field = \(claim.fieldName)))
                RETURNING 1
                """)
            guard claimed == 1 else {
                return .assetRefused("the receipt for field '\(claim.fieldName)' is unknown or was used for another record")
            }
            let stored = try await tx.execute("UPDATE blobs SET unreferenced_since = NULL WHERE checksum = \(claim.checksum) RETURNING 1")
            guard stored == 1 else {
                return .assetRefused("the asset for field '\(claim.fieldName)' is no longer stored: upload it again")
            }
        }
        return nil
    }

    /// Re-indexes the blobs a record holds after a save (`record`) or a delete (`nil`).
    func updateAssets(of record: StoredRecord?, before: StoredRecord?, zoneID: Int64) async throws {
        let old = before?.fields.assetChecksums ?? []
        let new = record?.fields.assetChecksums ?? []
        guard old != new, let name = record?.name ?? before?.name else { return }
        let gone = old.subtracting(new).sorted()
        let added = new.subtracting(old).sorted()
        if !gone.isEmpty {
            try await tx.execute("DELETE FROM record_assets WHERE zone_id = \(zoneID) AND record_name = \(name) AND checksum = ANY(\(gone))")
        }
        if !added.isEmpty {
            try await tx.execute("""
                INSERT INTO record_assets (zone_id, record_name, checksum)
                SELECT \(zoneID), \(name), checksum FROM unnest(\(added)::text[]) AS checksum
                ON CONFLICT DO NOTHING
                """)
        }
    }

    // MARK: - Share coverage

    /// Records which hierarchy shares each moved record (and its subtree) entered or left.
    func recordCoverageChanges(_ moves: [PostgresParentMove], zoneID: Int64, seq: inout Int64) async throws {
        let pairs = try await tx.all(
            "SELECT root_name, record_name FROM shares WHERE zone_id = \(zoneID) AND root_name IS NOT NULL"
        ) { try $0.decode((String, String).self) }
        let roots = Dictionary(pairs, uniquingKeysWith: { first, _ in first })
        guard !roots.isEmpty else { return }
        for move in moves {
            let before = try await shares(above: move.from, roots: roots, zoneID: zoneID)
            let after = try await shares(above: move.to, roots: roots, zoneID: zoneID)
            let changed = before.symmetricDifference(after)
            guard !changed.isEmpty else { continue }
            seq += 1
            try await tx.execute("""
                WITH RECURSIVE tree(name) AS (
                    SELECT CAST(\(move.name) AS TEXT)
                    UNION SELECT r.record_name FROM records r JOIN tree t ON r.zone_id = \(zoneID) AND r.parent_name = t.name
                )
                INSERT INTO share_coverage (zone_id, share_name, record_name, seq)
                SELECT \(zoneID), share, tree.name, \(seq) FROM tree CROSS JOIN unnest(\(changed.sorted())::text[]) AS share
                ON CONFLICT (zone_id, share_name, record_name) DO UPDATE SET seq = EXCLUDED.seq
                """)
        }
    }

    /// The hierarchy shares whose root is `start` or one of its ancestors.
    private func shares(above start: String?, roots: [String: String], zoneID: Int64) async throws -> Set<String> {
        var found: Set<String> = []
        var visited: Set<String> = []
        var current = start
        while let node = current, visited.insert(node).inserted, visited.count <= 10_000 {
            if let share = roots[node] { found.insert(share) }
            current = try await tx.first(
                "SELECT parent_name FROM records WHERE zone_id = \(zoneID) AND record_name = \(node)"
            ) { try $0.decode(String?.self) } ?? nil
        }
        return found
    }
}
