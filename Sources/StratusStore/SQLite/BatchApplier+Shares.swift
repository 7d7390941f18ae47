import Foundation
import GRDB
import StratusModel

/// Share records inside a zone batch: creating one ties it to its root (or the zone), saving
/// one changes its participants, deleting one (or its root) stops sharing. Participants who
/// lose access get a feed entry so their shared database reports the zone removed.
extension BatchApplier {
    func applyShare(
        _ write: RecordWrite, _ share: ShareWrite, live: StoredRecord?, zoneID: Int64, stamp: RecordStamp, seq: inout Int64
    ) throws -> WriteOutcome {
        if write.action == .create, let live { return .failed(.exists(live)) }
        guard var record = live else {
            return try createShare(write, share, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
        let rows = ShareRows(db: db)
        guard let row = try rows.share(named: write.name, zoneID: zoneID) else {
            return .failed(.invalid("record '\(write.name)' is not a share"))
        }
        let before = try rows.participants(of: write.name, zoneID: zoneID)
        let permission = share.publicPermission ?? row.publicPermission
        var participants = share.participants.map { BatchApplier.merge($0, into: before) } ?? before
        participants = BatchApplier.applyPublicPermission(from: row.publicPermission, to: permission, participants)
        if let failure = BatchApplier.checkLimit(participants, share.participantLimit) { return .failed(failure) }
        if let failure = BatchApplier.checkNotMixed(participants, before: before, permission: permission) { return .failed(failure) }

        seq += 1
        if case .save(replace: true) = write.action {
            record.fields = write.fields
        } else {
            record.fields.merge(write.fields) { _, new in new }
        }
        record.modified = stamp
        record.seq = seq
        try upsert(record, fieldsJSON: nil, zoneID: zoneID)
        if permission != row.publicPermission { try rows.setPublicPermission(permission, share: write.name, zoneID: zoneID) }
        try rows.replaceParticipants(participants, share: write.name, zoneID: zoneID)
        for user in BatchApplier.lostAccess(before: before, after: participants) {
            try rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        }
        return .saved(record)
    }

    private func createShare(_ write: RecordWrite, _ share: ShareWrite, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws -> WriteOutcome {
        let rows = ShareRows(db: db)
        var root: StoredRecord?
        if let rootName = share.rootName {
            guard let found = try SQLiteStore.fetchRecord(rootName, zoneID: zoneID, in: db, decoder: decoder), !found.deleted else {
                return .failed(.invalid("the share's root record '\(rootName)' does not exist in the zone"))
            }
            if let other = found.shareName, other != write.name {
                return .failed(.invalid("record '\(rootName)' is already shared by '\(other)'"))
            }
            root = found
        }
        let owner = StoredParticipant(
            id: UUID().uuidString, userRecordName: batch.zone.database.owner, email: nil,
            role: .owner, permission: .readWrite, status: .accepted
        )
        let permission = share.publicPermission ?? SharePermission.none
        let participants = BatchApplier.merge(share.participants ?? [], into: [owner])
        if let failure = BatchApplier.checkLimit(participants, share.participantLimit) { return .failed(failure) }
        if let failure = BatchApplier.checkNotMixed(participants, before: [owner], permission: permission) { return .failed(failure) }
        let guid = root?.shortGUID ?? ShareRows.newShortGUID()

        seq += 1
        let record = StoredRecord(
            name: write.name, type: ShareNames.recordType, fields: write.fields, created: stamp, modified: stamp,
            shortGUID: guid, seq: seq
        )
        try upsert(record, fieldsJSON: nil, zoneID: zoneID)
        try rows.insertShare(
            ShareRows.ShareRow(recordName: write.name, rootName: root?.name, shortGUID: guid, publicPermission: permission),
            zoneID: zoneID
        )
        try rows.replaceParticipants(participants, share: write.name, zoneID: zoneID)
        if var root {
            seq += 1
            root.shareName = write.name
            root.shortGUID = guid
            root.modified = stamp
            root.seq = seq
            try upsert(root, fieldsJSON: nil, zoneID: zoneID)
        }
        return .saved(record)
    }

    /// The batch's author leaves the share `name`: their participation is removed, the share
    /// record re-stamped (the owner sees it change), and their shared database told at once.
    func leave(_ name: String, live: StoredRecord?, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws -> WriteOutcome {
        let user = batch.author.userRecordName
        let rows = ShareRows(db: db)
        guard var record = live, ShareNames.isShareType(record.type) else { return .failed(.notFound) }
        var participants = try rows.participants(of: name, zoneID: zoneID)
        guard let index = participants.firstIndex(where: { $0.userRecordName == user && $0.role != .owner && $0.status != .removed }) else {
            return .failed(.notFound)
        }
        participants[index].status = .removed
        seq += 1
        record.modified = stamp
        record.seq = seq
        try upsert(record, fieldsJSON: nil, zoneID: zoneID)
        try rows.replaceParticipants(participants, share: name, zoneID: zoneID)
        try rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        return .deleted(name: name)
    }

    /// Drops the share's rows (its record is already a tombstone), clears its root's `share`,
    /// and reports the zone removed to every participant who no longer sees it.
    func stopSharing(_ name: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws {
        let rows = ShareRows(db: db)
        guard let row = try rows.share(named: name, zoneID: zoneID) else { return }
        let users = try rows.deleteShare(named: name, zoneID: zoneID)
        if let rootName = row.rootName,
            var root = try SQLiteStore.fetchRecord(rootName, zoneID: zoneID, in: db, decoder: decoder), !root.deleted
        {
            seq += 1
            root.shareName = nil
            root.modified = stamp
            root.seq = seq
            try upsert(root, fieldsJSON: nil, zoneID: zoneID)
        }
        for user in users {
            seq += 1
            try rows.refreshFeed(user: user, zoneID: zoneID, seq: seq)
        }
    }

    // MARK: - Participant lists

    /// The participant list a share save asks for: given participants matched to existing ones
    /// (by id, account or email) and updated, new ones invited, missing ones removed. The owner
    /// always stays as they are. Linear in the participants: matches are found through indexes
    /// by id, account and email, never by searching the list.
    static func merge(_ specs: [ParticipantSpec], into existing: [StoredParticipant]) -> [StoredParticipant] {
        var result = existing
        var participants = ParticipantIndex()
        for position in result.indices { participants.add(result[position], at: position) }
        var named = Set<String>()
        for spec in specs {
            guard let index = participants.first(matching: spec) else {
                guard spec.status != .removed else { continue }
                let invited = StoredParticipant(
                    id: UUID().uuidString, userRecordName: spec.userRecordName, email: spec.email,
                    role: spec.role == .owner ? .user : spec.role, permission: spec.permission, status: .invited
                )
                participants.add(invited, at: result.count)
                result.append(invited)
                named.insert(invited.id)
                continue
            }
            named.insert(result[index].id)
            guard result[index].role != .owner else { continue }
            if spec.role != .owner { result[index].role = spec.role }
            result[index].permission = spec.permission
            if result[index].userRecordName == nil, let user = spec.userRecordName {
                result[index].userRecordName = user
                participants.add(result[index], at: index)
            }
            if spec.status == .removed {
                result[index].status = .removed
            } else if result[index].status == .removed {
                result[index].status = .invited
            }
        }
        for index in result.indices where !named.contains(result[index].id) && result[index].role != .owner {
            result[index].status = .removed
        }
        return result
    }

    /// Opening a private share to the public drops its pending invitations (accepted ones stay);
    /// closing a public share removes every participant but the owner (CKShare's rules).
    static func applyPublicPermission(
        from old: SharePermission, to new: SharePermission, _ participants: [StoredParticipant]
    ) -> [StoredParticipant] {
        guard old != new else { return participants }
        return participants.map { participant in
            var participant = participant
            guard participant.role != .owner else { return participant }
            if old == .none, participant.status == .invited { participant.status = .removed }
            if new == .none { participant.status = .removed }
            return participant
        }
    }

    /// A public share takes no new invitations: its participant list changes only while it is
    /// private (private and public participants are not mixed).
    static func checkNotMixed(_ participants: [StoredParticipant], before: [StoredParticipant], permission: SharePermission) -> WriteFailure? {
        guard permission != .none else { return nil }
        let wasActive = Set(before.filter { $0.status != .removed }.map(\.id))
        let invites = participants.contains { $0.status == .invited && $0.role != .publicUser && !wasActive.contains($0.id) }
        guard invites else { return nil }
        return .invalid("a public share (publicPermission \(permission.rawValue)) takes no invitations: private and public participants are not mixed")
    }

    static func checkLimit(_ participants: [StoredParticipant], _ limit: Int) -> WriteFailure? {
        let count = participants.count { $0.status != .removed }
        guard count > limit else { return nil }
        return .invalid("a share may have at most \(limit) participants, this one would have \(count)")
    }

    /// Accounts that had accepted before and no longer count as accepted.
    static func lostAccess(before: [StoredParticipant], after: [StoredParticipant]) -> [String] {
        let stillAccepted = Set(after.filter { $0.status == .accepted }.compactMap(\.userRecordName))
        return before.filter { $0.status == .accepted && $0.role != .owner }
            .compactMap(\.userRecordName)
            .filter { !stillAccepted.contains($0) }
    }
}
