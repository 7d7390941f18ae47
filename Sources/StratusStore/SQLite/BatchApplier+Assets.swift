import GRDB
import StratusModel

/// Assets inside a zone batch: a write's receipts are claimed (each serves one record field),
/// assets given without a receipt must already be the record's, and `record_assets` says which
/// records hold which blob, so a collection never removes a referenced one.
extension BatchApplier {
    /// Claims the write's receipts and checks its receipt-less assets against the record as
    /// stored; the reason the write fails when one does not hold.
    func assetFailure(of write: RecordWrite, live: StoredRecord?, zoneID: Int64) throws -> WriteFailure? {
        if !write.unclaimedAssets.isEmpty {
            let held = live?.fields.assetChecksums ?? []
            if let stranger = write.unclaimedAssets.subtracting(held).sorted().first {
                return .assetRefused(
                    "asset \(stranger) is not on record '\(write.name)': attach new bytes with the receipt of assets/upload or assets/rereference"
                )
            }
        }
        for claim in write.assetClaims {
            try db.cachedStatement(
                sql: """
                    UPDATE asset_uploads SET claimed_zone = ?, claimed_record = ?, claimed_field = ?
                    WHERE upload_id = ? AND checksum = ?
                        AND (claimed_zone IS NULL OR (claimed_zone = ? AND claimed_record = ? AND claimed_field = ?))
                    """
            ).execute(arguments: [
                zoneID, write.name, claim.fieldName, claim.uploadID, claim.checksum, zoneID, write.name, claim.fieldName,
            ])
            guard db.changesCount == 1 else {
                return .assetRefused("the receipt for field '\(claim.fieldName)' is unknown or was used for another record")
            }
            try db.cachedStatement(sql: "UPDATE blobs SET unreferenced_since = NULL WHERE checksum = ?").execute(arguments: [claim.checksum])
            guard db.changesCount == 1 else {
                return .assetRefused("the asset for field '\(claim.fieldName)' is no longer stored: upload it again")
            }
        }
        return nil
    }

    /// Re-indexes the blobs a record holds after a save (`record`) or a delete (`nil`).
    /// Records without assets, before or after, cost no statement.
    func updateAssets(of record: StoredRecord?, before: StoredRecord?, zoneID: Int64) throws {
        let old = before?.fields.assetChecksums ?? []
        let new = record?.fields.assetChecksums ?? []
        guard old != new, let name = record?.name ?? before?.name else { return }
        for checksum in old.subtracting(new) {
            try db.cachedStatement(sql: "DELETE FROM record_assets WHERE zone_id = ? AND record_name = ? AND checksum = ?")
                .execute(arguments: [zoneID, name, checksum])
        }
        for checksum in new.subtracting(old) {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO record_assets (zone_id, record_name, checksum) VALUES (?, ?, ?)")
                .execute(arguments: [zoneID, name, checksum])
        }
    }
}
