import Foundation
import StratusModel

/// Share records inside a zone batch: creating one ties it to its root (or the zone), saving
/// one changes its participants (``ShareRules``), deleting one (or its root) stops sharing.
/// Participants who lose access get a feed entry so their shared database reports the zone removed.
extension ZoneBatchEngine {
    mutating func applyShare(_ write: RecordWrite, _ share: ShareWrite, live: StoredRecord?, stamp: RecordStamp) throws -> WriteOutcome {
        if write.action == .create, let live { return .failed(.exists(live)) }
        guard var record = live else { return try createShare(write, share, stamp: stamp) }
        guard var row = try self.share(named: write.name) else {
            return .failed(.invalid("record '\(write.name)' is not a share"))
        }
        let before = try participants(of: write.name)
        let permission = share.publicPermission ?? row.publicPermission
        var participants = share.participants.map { ShareRules.merge($0, into: before, newID: ids.participantID) } ?? before
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
        try upsert(record, fieldsJSON: nil)
        if permission != row.publicPermission {
            row.publicPermission = permission
            writes.shares[write.name] = .some(row)
        }
        writes.participants[write.name] = participants
        for user in ShareRules.lostAccess(before: before, after: participants) {
            try refreshFeed(user: user)
        }
        return .saved(record)
    }

    private mutating func createShare(_ write: RecordWrite, _ share: ShareWrite, stamp: RecordStamp) throws -> WriteOutcome {
        var root: StoredRecord?
        if let rootName = share.rootName {
            guard let found = try liveRecord(rootName) else {
                return .failed(.invalid("the share's root record '\(rootName)' does not exist in the zone"))
            }
            root = found
        }
        // The other kind than the new share's: any record-hierarchy share when it is zone-wide, else the zone-wide share.
        let other = try shares(hierarchy: share.rootName == nil).first
        if let failure = ShareRules.checkOneShare(
            creating: write.name, rootName: share.rootName, rootShare: root?.shareName,
            other: other.map { (name: $0.recordName, rootName: $0.rootName) }, zone: batch.zone.name
        ) {
            return .failed(failure)
        }
        let owner = StoredParticipant(
            id: ids.participantID(), userRecordName: batch.zone.database.owner, email: nil,
            role: .owner, permission: .readWrite, status: .accepted
        )
        let permission = share.publicPermission ?? SharePermission.none
        let participants = ShareRules.merge(share.participants ?? [], into: [owner], newID: ids.participantID)
        if let failure = ShareRules.checkLimit(participants, share.participantLimit) { return .failed(failure) }
        if let failure = ShareRules.checkNotMixed(participants, before: [owner], permission: permission) { return .failed(failure) }
        let guid = root?.shortGUID ?? ids.shortGUID()

        seq += 1
        let record = StoredRecord(
            name: write.name, type: ShareNames.recordType, fields: write.fields, created: stamp, modified: stamp,
            shortGUID: guid, seq: seq
        )
        try upsert(record, fieldsJSON: nil)
        writes.shares[write.name] = .some(ShareRow(recordName: write.name, rootName: root?.name, shortGUID: guid, publicPermission: permission))
        writes.participants[write.name] = participants
        if var root {
            seq += 1
            root.shareName = write.name
            root.shortGUID = guid
            root.modified = stamp
            root.seq = seq
            try upsert(root, fieldsJSON: nil)
        }
        return .saved(record)
    }

    /// The batch's author leaves the share `name`: their participation is removed, the share
    /// record re-stamped (the owner sees it change), and their shared database told at once.
    mutating func leave(_ name: String, live: StoredRecord?, stamp: RecordStamp) throws -> WriteOutcome {
        let user = batch.author.userRecordName
        guard var record = live, ShareNames.isShareType(record.type) else { return .failed(.notFound) }
        var participants = try participants(of: name)
        guard let index = participants.firstIndex(where: { $0.userRecordName == user && $0.role != .owner && $0.status != .removed }) else {
            return .failed(.notFound)
        }
        participants[index].status = .removed
        seq += 1
        record.modified = stamp
        record.seq = seq
        try upsert(record, fieldsJSON: nil)
        writes.participants[name] = participants
        try refreshFeed(user: user)
        return .deleted(name: name)
    }

    /// Drops the share's rows (its record is already a tombstone), clears its root's `share`,
    /// and reports the zone removed to every participant who no longer sees it.
    mutating func stopSharing(_ name: String, stamp: RecordStamp) throws {
        guard let row = try share(named: name) else { return }
        let accepted = try participants(of: name)
            .filter { $0.status == .accepted && $0.role != .owner }
            .compactMap(\.userRecordName)
        writes.shares[name] = .some(nil)
        writes.participants[name] = []
        if let rootName = row.rootName, var root = try liveRecord(rootName) {
            seq += 1
            root.shareName = nil
            root.modified = stamp
            root.seq = seq
            try upsert(root, fieldsJSON: nil)
        }
        for user in accepted {
            seq += 1
            try refreshFeed(user: user)
        }
    }

    /// Records, at the current sequence value, whether `user` still sees the zone: they do while
    /// any share of it counts them as accepted. Zone tokens the user holds from before expire.
    private mutating func refreshFeed(user: String) throws {
        writes.feed[user] = BatchWrites.FeedEntry(seq: seq, visible: try seesZone(user))
    }
}
