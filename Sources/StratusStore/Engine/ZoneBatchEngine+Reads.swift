import StratusModel

/// The zone as the batch has left it so far: what the batch wrote (``BatchWrites``) over what
/// the back end holds (``BatchRows``).
extension ZoneBatchEngine {
    /// The record's row, tombstones included.
    func record(_ name: String) throws -> StoredRecord? {
        if let written = writes.records[name] { return written.record }
        return try rows.record(name)?.record
    }

    /// The record, when it is live.
    func liveRecord(_ name: String) throws -> StoredRecord? {
        guard let record = try record(name), !record.deleted else { return nil }
        return record
    }

    /// The bytes the live record's stored fields take (0 for none).
    func liveBytes(of name: String) throws -> Int64 {
        if let written = writes.records[name] { return written.record.deleted ? 0 : Int64(written.json.utf8.count) }
        guard let row = try rows.record(name), !row.record.deleted else { return 0 }
        return row.fieldsBytes
    }

    /// The records with a `DELETE_SELF` reference to `target`.
    func referenceSources(of target: String) throws -> [String] {
        let stored = try rows.referenceSources(of: target).filter { writes.references[$0] == nil }
        let written = writes.references.filter { $0.value.contains(target) }.keys
        return stored + written.sorted()
    }

    /// The records whose parent is `name`, tombstones included.
    func children(of name: String) throws -> [String] {
        let stored = try rows.children(of: name).filter { writes.records[$0] == nil }
        let written = writes.records.values.filter { $0.record.parentName == name }.map(\.record.name)
        return stored + written.sorted()
    }

    func share(named name: String) throws -> ShareRow? {
        if let written = writes.shares[name] { return written }
        return try rows.share(named: name)
    }

    /// The zone's shares of one kind, by name.
    func shares(hierarchy: Bool) throws -> [ShareRow] {
        let stored = try rows.shares(hierarchy: hierarchy).filter { writes.shares[$0.recordName] == nil }
        let written = writes.shares.values.compactMap { $0 }.filter { ($0.rootName != nil) == hierarchy }
        return (stored + written).sorted { $0.recordName < $1.recordName }
    }

    func participants(of share: String) throws -> [StoredParticipant] {
        if let written = writes.participants[share] { return written }
        return try rows.participants(of: share)
    }

    /// Whether `user` sees the zone in their shared database: some share of it counts them as
    /// an accepted participant (not its owner).
    func seesZone(_ user: String) throws -> Bool {
        let stored = try rows.sharesAccepted(by: user).filter { writes.participants[$0] == nil }
        if !stored.isEmpty { return true }
        return writes.participants.values.contains { list in
            list.contains { $0.userRecordName == user && $0.status == .accepted && $0.role != .owner }
        }
    }

    /// The upload's receipt as the batch has left it.
    func upload(_ uploadID: String) throws -> UploadRow? {
        if let claimed = writes.claims[uploadID] { return UploadRow(checksum: claimed.checksum, claim: claimed.claim) }
        return try rows.upload(uploadID)
    }
}
