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
        try upsert(record, fieldsJSON: nil, zoneID: zoneID)
        if permission != row.publicPermission { try rows.setPublicPermission(permission, share: write.name, zoneID: zoneID) }
        try rows.replaceParticipants(participants, share: write.name, zoneID: zoneID)
        for user in ShareRules.lostAccess(before: before, after: participants) {
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
            root = found
        }
        let other = try rows.share(ofOtherKindThan: share.rootName, zoneID: zoneID)
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
}
