import Foundation
import GRDB
import StratusModel

/// The share tables, read and written inside an open transaction: share rows, participant rows
/// and each participant's shared database feed. Used by zone batches (share saves and deletes)
/// and by acceptance and leaving.
struct ShareRows {
    let db: Database

    // MARK: - Reading

    struct ShareRow {
        var recordName: String
        var rootName: String?
        var shortGUID: String
        var publicPermission: SharePermission
    }

    func share(named name: String, zoneID: Int64) throws -> ShareRow? {
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: "SELECT record_name, root_name, short_guid, public_permission FROM shares WHERE zone_id = ? AND record_name = ?"
            ),
            arguments: [zoneID, name]
        )
        return row.map(ShareRows.shareRow(from:))
    }

    /// A share of the zone of the other kind than a new share rooted at `rootName`, for
    /// ``ShareRules/checkOneShare(creating:rootName:rootShare:other:zone:)``: any record-hierarchy
    /// share when the new one is zone-wide (`rootName` is `nil`), else the zone-wide share.
    func share(ofOtherKindThan rootName: String?, zoneID: Int64) throws -> ShareRow? {
        let otherKind = rootName == nil ? "root_name IS NOT NULL" : "root_name IS NULL"
        let row = try Row.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT record_name, root_name, short_guid, public_permission FROM shares
                    WHERE zone_id = ? AND \(otherKind) ORDER BY record_name LIMIT 1
                    """
            ),
            arguments: [zoneID]
        )
        return row.map(ShareRows.shareRow(from:))
    }

    static func shareRow(from row: Row) -> ShareRow {
        ShareRow(
            recordName: row[0], rootName: row[1], shortGUID: row[2],
            publicPermission: SharePermission(rawValue: row[3]) ?? .unknown
        )
    }

    func participants(of share: String, zoneID: Int64) throws -> [StoredParticipant] {
        try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT participant_id, user_record_name, email, role, permission, status FROM share_participants
                    WHERE zone_id = ? AND share_name = ? ORDER BY position
                    """
            ),
            arguments: [zoneID, share]
        ).map { row in
            StoredParticipant(
                id: row[0], userRecordName: row[1], email: row[2],
                role: ParticipantRole(rawValue: row[3]) ?? .unknown,
                permission: SharePermission(rawValue: row[4]) ?? .unknown,
                status: ParticipantAcceptanceStatus(rawValue: row[5]) ?? .unknown
            )
        }
    }

    // MARK: - Writing

    func insertShare(_ share: ShareRow, zoneID: Int64) throws {
        try db.execute(
            sql: "INSERT INTO shares (zone_id, record_name, root_name, short_guid, public_permission) VALUES (?, ?, ?, ?, ?)",
            arguments: [zoneID, share.recordName, share.rootName, share.shortGUID, share.publicPermission.rawValue]
        )
    }

    func setPublicPermission(_ permission: SharePermission, share: String, zoneID: Int64) throws {
        try db.execute(
            sql: "UPDATE shares SET public_permission = ? WHERE zone_id = ? AND record_name = ?",
            arguments: [permission.rawValue, zoneID, share]
        )
    }

    /// Replaces the share's participant rows with `participants`, in order.
    func replaceParticipants(_ participants: [StoredParticipant], share: String, zoneID: Int64) throws {
        try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ? AND share_name = ?", arguments: [zoneID, share])
        for (position, participant) in participants.enumerated() {
            try db.cachedStatement(
                sql: """
                    INSERT INTO share_participants
                        (zone_id, share_name, participant_id, position, user_record_name, email, role, permission, status)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [
                zoneID, share, participant.id, position, participant.userRecordName, participant.email,
                participant.role.rawValue, participant.permission.rawValue, participant.status.rawValue,
            ])
        }
    }

    /// Drops a share and its participants; returns the accounts that had accepted it.
    func deleteShare(named name: String, zoneID: Int64) throws -> [String] {
        let accepted = try participants(of: name, zoneID: zoneID)
            .filter { $0.status == .accepted && $0.role != .owner }
            .compactMap(\.userRecordName)
        try db.execute(sql: "DELETE FROM share_participants WHERE zone_id = ? AND share_name = ?", arguments: [zoneID, name])
        try db.execute(sql: "DELETE FROM shares WHERE zone_id = ? AND record_name = ?", arguments: [zoneID, name])
        return accepted
    }

    /// Records, at `seq`, whether `user` still sees the zone: they do while any share of it
    /// counts them as accepted. Zone tokens the user holds from before `seq` expire.
    func refreshFeed(user: String, zoneID: Int64, seq: Int64) throws {
        let visible = try Bool.fetchOne(
            db.cachedStatement(
                sql: """
                    SELECT EXISTS (SELECT 1 FROM share_participants
                    WHERE zone_id = ? AND user_record_name = ? AND status = 'ACCEPTED' AND role != 'OWNER')
                    """
            ),
            arguments: [zoneID, user]
        ) ?? false
        try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO shared_zone_feed (user_record_name, zone_id, seq, visible) VALUES (?, ?, ?, ?)"
        ).execute(arguments: [user, zoneID, seq, visible])
    }
}
