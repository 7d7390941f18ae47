import Foundation
import StratusModel
import StratusStore

/// Share records inside a zone batch, as the SQLite store applies them: creating one ties it to
/// its root (or the zone), saving one changes its participants (``ShareRules``), deleting one
/// (or its root) stops sharing; participants who lose access get a feed entry.
extension PostgresBatchApplier {
    func applyShare(
        _ write: RecordWrite, _ share: ShareWrite, live: StoredRecord?, zoneID: Int64, stamp: RecordStamp, seq: inout Int64
    ) async throws -> WriteOutcome {
        if write.action == .create, let live { return .failed(.exists(live)) }
        guard var record = live else {
            return try await createShare(write, share, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
        let rows = PostgresShareRows(tx: tx)
        guard let row = try await rows.share(named: write.name, zoneID: zoneID) else {
            return .failed(.invalid("record '\(write.name)' is not a share"))
        }
        let before = try await rows.participants(of: write.name, zoneID: zoneID)
        let permission = share.publicPermission ?? row.publicPermission
        var participants = share.participants.map { ShareRules.merge($0, into: before) } ?? before
        participants = ShareRules.applyPublicPermission(from: row.publicPermission, to: permission, participants)
        if let failure = ShareRules.checkLimit(participants, share.participantLimit) { return .failed(failure) }
        if let failure = ShareRules.checkNotMixed(participants, before: before, permission: permission) { return .failed(failure) }

        seq += 1
        if case .save(replace: true) = write.action {
            record.fields = write.fields
        } else {
            record.fields.merge(write.fields) { _, new in new }
        }
        record.modified = stamp
        record.seq = seq
        try await upsert(record, fieldsJSON: nil, zoneID: zoneID)
        if permission != row.publicPermission { try await rows.setPublicPermission(permission, share: write.name, zoneID: zoneID) }
        try await rows.replaceParticipants(participants, share: write.name, zoneID: zoneID)
        for user in ShareRules.lostAccess(before: before, after: participants) {
            try await rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        }
        return .saved(record)
    }

    private func createShare(
        _ write: RecordWrite, _ share: ShareWrite, zoneID: Int64, stamp: RecordStamp, seq: inout Int64
    ) async throws -> WriteOutcome {
        let rows = PostgresShareRows(tx: tx)
        var root: StoredRecord?
        if let rootName = share.rootName {
            guard let found = try await row(rootName), !found.deleted else {
                return .failed(.invalid("the share's root record '\(rootName)' does not exist in the zone"))
            }
            root = found
        }
        let other = try await rows.share(ofOtherKindThan: share.rootName, zoneID: zoneID)
        if let failure = ShareRules.checkOneShare(
            creating: write.name, rootName: share.rootName, rootShare: root?.shareName,
            other: other.map { (name: $0.recordName, rootName: $0.rootName) }, zone: batch.zone.name
        ) {
            return .failed(failure)
        }
        let owner = StoredParticipant(
            id: UUID().uuidString, userRecordName: batch.zone.database.owner, email: nil,
            role: .owner, permission: .readWrite, status: .accepted
        )
        let permission = share.publicPermission ?? SharePermission.none
        let participants = ShareRules.merge(share.participants ?? [], into: [owner])
        if let failure = ShareRules.checkLimit(participants, share.participantLimit) { return .failed(failure) }
        if let failure = ShareRules.checkNotMixed(participants, before: [owner], permission: permission) { return .failed(failure) }
        let guid = root?.shortGUID ?? ShareRules.newShortGUID()

        seq += 1
        let record = StoredRecord(
            name: write.name, type: ShareNames.recordType, fields: write.fields, created: stamp, modified: stamp,
            shortGUID: guid, seq: seq
        )
        try await upsert(record, fieldsJSON: nil, zoneID: zoneID)
        try await rows.insertShare(
            PostgresShareRows.ShareRow(recordName: write.name, rootName: root?.name, shortGUID: guid, publicPermission: permission),
            zoneID: zoneID
        )
        try await rows.replaceParticipants(participants, share: write.name, zoneID: zoneID, replacing: false)
        if var root {
            seq += 1
            root.shareName = write.name
            root.shortGUID = guid
            root.modified = stamp
            root.seq = seq
            try await upsert(root, fieldsJSON: nil, zoneID: zoneID)
        }
        return .saved(record)
    }

    /// The batch's author leaves the share `name`: their participation is removed, the share
    /// record re-stamped, and their shared database told at once.
    func leave(_ name: String, live: StoredRecord?, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) async throws -> WriteOutcome {
        let user = batch.author.userRecordName
        let rows = PostgresShareRows(tx: tx)
        guard var record = live, ShareNames.isShareType(record.type) else { return .failed(.notFound) }
        var participants = try await rows.participants(of: name, zoneID: zoneID)
        guard let index = participants.firstIndex(where: { $0.userRecordName == user && $0.role != .owner && $0.status != .removed }) else {
            return .failed(.notFound)
        }
        participants[index].status = .removed
        seq += 1
        record.modified = stamp
        record.seq = seq
        try await upsert(record, fieldsJSON: nil, zoneID: zoneID)
        try await rows.replaceParticipants(participants, share: name, zoneID: zoneID)
        try await rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        return .deleted(name: name)
    }

    /// Drops the share's rows (its record is already a tombstone), clears its root's `share`,
    /// and reports the zone removed to every participant who no longer sees it.
    func stopSharing(_ name: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) async throws {
        let rows = PostgresShareRows(tx: tx)
        guard let share = try await rows.share(named: name, zoneID: zoneID) else { return }
        let users = try await rows.deleteShare(named: name, zoneID: zoneID)
        if let rootName = share.rootName, var root = try await row(rootName), !root.deleted {
            seq += 1
            root.shareName = nil
            root.modified = stamp
            root.seq = seq
            try await upsert(root, fieldsJSON: nil, zoneID: zoneID)
        }
        for user in users {
            seq += 1
            try await rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        }
    }
}
