import StratusModel

/// What a zone batch keeps beside the records: `DELETE_SELF` references (which records point at
/// which, so deleting a target deletes its sources, and theirs in turn, in the same commit),
/// asset receipts and holdings (each receipt serves one record field; `record_assets` says which
/// records hold which blob, so a collection never removes a referenced one), and what hierarchy
/// shares cover (a record moved under a shared root enters the share with its subtree, one moved
/// out leaves it, at a sequence value of its own, without re-stamping the records).
extension ZoneBatchEngine {
    // MARK: - References

    /// Re-indexes a record's DELETE_SELF references after a save (`record`) or a delete (`nil`).
    mutating func updateReferences(of record: StoredRecord?, before: StoredRecord?) {
        let old = before?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        let new = record?.fields.referencedNames(actions: [.deleteSelf]) ?? []
        guard old != new, let source = record?.name ?? before?.name else { return }
        writes.references[source] = new
    }

    /// Deletes every live record whose DELETE_SELF reference points at `name`, transitively.
    mutating func deleteSources(of name: String, stamp: RecordStamp) throws {
        var targets = [name]
        while let target = targets.popLast() {
            for source in try referenceSources(of: target) {
                guard let record = try liveRecord(source) else { continue }
                try delete(record, stamp: stamp)
                targets.append(source)
            }
        }
    }

    // MARK: - Assets

    /// Claims the write's receipts and checks its receipt-less assets against the record as
    /// stored; the reason the write fails when one does not hold.
    mutating func assetFailure(of write: RecordWrite, live: StoredRecord?) throws -> WriteFailure? {
        if !write.unclaimedAssets.isEmpty {
            let held = live?.fields.assetChecksums ?? []
            if let stranger = write.unclaimedAssets.subtracting(held).sorted().first {
                return .assetRefused(
                    "asset \(stranger) is not on record '\(write.name)': attach new bytes with the receipt of assets/upload or assets/rereference"
                )
            }
        }
        for receipt in write.assetClaims {
            let claim = UploadClaim(zoneID: zone.id, recordName: write.name, fieldName: receipt.fieldName)
            guard let upload = try upload(receipt.uploadID), upload.checksum == receipt.checksum, upload.claim == nil || upload.claim == claim
            else {
                return .assetRefused("the receipt for field '\(receipt.fieldName)' is unknown or was used for another record")
            }
            guard try rows.blobIsStored(receipt.checksum) else {
                return .assetRefused("the asset for field '\(receipt.fieldName)' is no longer stored: upload it again")
            }
            writes.claims[receipt.uploadID] = BatchWrites.ClaimedUpload(uploadID: receipt.uploadID, checksum: receipt.checksum, claim: claim)
        }
        return nil
    }

    /// Re-indexes the blobs a record holds after a save (`record`) or a delete (`nil`).
    mutating func updateAssets(of record: StoredRecord?, before: StoredRecord?) {
        let old = before?.fields.assetChecksums ?? []
        let new = record?.fields.assetChecksums ?? []
        guard old != new, let name = record?.name ?? before?.name else { return }
        for checksum in old.subtracting(new) { writes.assetLinks[.init(recordName: name, checksum: checksum)] = false }
        for checksum in new.subtracting(old) { writes.assetLinks[.init(recordName: name, checksum: checksum)] = true }
    }

    // MARK: - Share coverage

    /// Records which hierarchy shares each moved record (and its subtree) entered or left.
    mutating func recordCoverageChanges() throws {
        let roots = Dictionary(try shares(hierarchy: true).compactMap { row in row.rootName.map { ($0, row.recordName) } }) { first, _ in first }
        guard !roots.isEmpty else { return }
        for move in moves {
            let changed = try shares(above: move.from, roots: roots).symmetricDifference(shares(above: move.to, roots: roots))
            guard !changed.isEmpty else { continue }
            seq += 1
            let subtree = try subtree(of: move.name)
            for share in changed {
                for name in subtree { writes.coverage[.init(shareName: share, recordName: name)] = seq }
            }
        }
    }

    /// The hierarchy shares whose root is `start` or one of its ancestors.
    private func shares(above start: String?, roots: [String: String]) throws -> Set<String> {
        var found: Set<String> = []
        var visited: Set<String> = []
        var current = start
        while let node = current, visited.insert(node).inserted, visited.count <= 10_000 {
            if let share = roots[node] { found.insert(share) }
            current = try record(node)?.parentName
        }
        return found
    }

    /// `name` and every record below it, tombstones included.
    private func subtree(of name: String) throws -> [String] {
        var found: [String] = [name]
        var seen: Set<String> = [name]
        var index = 0
        while index < found.count {
            for child in try children(of: found[index]) where seen.insert(child).inserted { found.append(child) }
            index += 1
        }
        return found
    }
}
