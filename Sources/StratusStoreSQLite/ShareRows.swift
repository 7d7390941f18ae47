import Foundation
import GRDB
import StratusModel
import StratusStore

/// The share tables, read and written inside an open transaction: share rows, participant rows
/// and each participant's shared database feed. Used by acceptance and leaving (zone batches
/// decide theirs in ``ZoneBatchEngine`` and write them through ``SQLiteBatchWrites``).
struct ShareRows {
    let db: Database

    // MARK: - Reading

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
