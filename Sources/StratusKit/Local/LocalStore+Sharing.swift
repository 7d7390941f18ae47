import StratusModel

/// NSPersistentCloudKitContainer's share questions, answered from the mirror: the share
/// records come down with the zone's changes, participants and all.
extension LocalStore {
    /// The share a record belongs to: its hierarchy root's share, or its zone's zone-wide share.
    public func share(covering key: RecordKey) throws -> StratusModel.Record? {
        let zone = key.zoneID
        if let zoneShare = try record(RecordKey(scope: key.scope, zoneID: zone, recordName: ShareNames.zoneWideShare))?.serverRecord {
            return zoneShare
        }
        var current = try record(key)
        var seen = Set<String>()
        while let record = current, seen.insert(record.key.recordName).inserted {
            if let shareName = record.serverRecord?.share?.recordName {
                return try self.record(RecordKey(scope: key.scope, zoneID: zone, recordName: shareName))?.serverRecord
            }
            guard let parent = record.parentName else { return nil }
            current = try self.record(RecordKey(scope: key.scope, zoneID: zone, recordName: parent))
        }
        return nil
    }

    /// The shares of these records, by record (`fetchShares(matching:)`).
    public func fetchShares(matching keys: [RecordKey]) throws -> [RecordKey: StratusModel.Record] {
        var shares: [RecordKey: StratusModel.Record] = [:]
        for key in keys {
            if let share = try share(covering: key) { shares[key] = share }
        }
        return shares
    }

    /// Whether the record is part of a share (as owner or participant).
    public func isShared(_ key: RecordKey) throws -> Bool {
        try key.scope == .shared || share(covering: key) != nil
    }

    /// Whether the signed-in account owns the record (every private record; no shared one).
    public func isOwner(_ key: RecordKey) throws -> Bool {
        key.scope == .private
    }

    /// Whether the account may change the record: always its own; a shared one with READ_WRITE.
    public func canUpdateRecord(_ key: RecordKey) throws -> Bool {
        guard key.scope == .shared else { return true }
        guard let share = try share(covering: key) else { return false }
        return share.currentUserParticipant?.permission == .readWrite || share.publicPermission == .readWrite
    }

    /// Whether the account may delete the record: as for updates, except a share's root, which
    /// only its owner deletes.
    public func canDeleteRecord(_ key: RecordKey) throws -> Bool {
        guard key.scope == .shared else { return true }
        guard try canUpdateRecord(key) else { return false }
        return try record(key)?.serverRecord?.share == nil
    }
}
