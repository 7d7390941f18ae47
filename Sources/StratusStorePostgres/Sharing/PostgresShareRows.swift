import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// The share tables, read and written inside an open transaction (as the SQLite store's
/// `ShareRows`): share rows, participant rows and each participant's shared database feed. Zone
/// batches decide theirs in ``ZoneBatchEngine`` and write them through ``PostgresBatchWrites``.
struct PostgresShareRows {
    let tx: PostgresTransaction

    static let shareColumns = "record_name, root_name, short_guid, public_permission"

    static func shareRow(from row: PostgresRow) throws -> ShareRow {
        let (name, root, guid, permission) = try row.decode((String, String?, String, String).self)
        return ShareRow(recordName: name, rootName: root, shortGUID: guid, publicPermission: SharePermission(rawValue: permission) ?? .unknown)
    }

    func participants(of share: String, zoneID: Int64) async throws -> [StoredParticipant] {
        try await tx.all("""
            SELECT participant_id, user_record_name, email, role, permission, status FROM share_participants
            WHERE zone_id = \(zoneID) AND share_name = \(share) ORDER BY position
            """) { try Self.participant(from: $0) }
    }

    /// Every share's participants in a zone, in order, in one statement.
    func participants(inZone zoneID: Int64) async throws -> [String: [StoredParticipant]] {
        let rows = try await tx.all("""
            SELECT participant_id, user_record_name, email, role, permission, status, share_name FROM share_participants
            WHERE zone_id = \(zoneID) ORDER BY share_name, position
            """) { row in (try row.makeRandomAccess()[6].decode(String.self), try Self.participant(from: row)) }
        return Dictionary(grouping: rows, by: \.0).mapValues { $0.map(\.1) }
    }

    /// A participant from a row starting `participant_id, user_record_name, email, role, permission, status`.
    static func participant(from row: PostgresRow) throws -> StoredParticipant {
        let (id, user, email, role, permission, status) = try row.decode((String, String?, String?, String, String, String).self)
        return StoredParticipant(
            id: id, userRecordName: user, email: email, role: ParticipantRole(rawValue: role) ?? .unknown,
            permission: SharePermission(rawValue: permission) ?? .unknown,
            status: ParticipantAcceptanceStatus(rawValue: status) ?? .unknown
        )
    }

    /// Replaces the share's participant rows with `participants`, in order: the old rows in one
    /// statement (none for a share just created: `replacing: false`), the new ones in another.
    func replaceParticipants(_ participants: [StoredParticipant], share: String, zoneID: Int64, replacing: Bool = true) async throws {
        if replacing {
            try await tx.execute("DELETE FROM share_participants WHERE zone_id = \(zoneID) AND share_name = \(share)")
        }
        guard !participants.isEmpty else { return }
        let rows = participants.enumerated().map { position, participant in
            ParticipantRow(
                participantID: participant.id, position: position, userRecordName: participant.userRecordName, email: participant.email,
                role: participant.role.rawValue, permission: participant.permission.rawValue, status: participant.status.rawValue
            )
        }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = String(decoding: try encoder.encode(rows), as: UTF8.self)
        try await tx.execute("""
            INSERT INTO share_participants
                (zone_id, share_name, participant_id, position, user_record_name, email, role, permission, status)
            SELECT \(zoneID), \(share), p.participant_id, p.position, p.user_record_name, p.email, p.role, p.permission, p.status
            FROM jsonb_to_recordset(CAST(\(json) AS jsonb)) AS p(participant_id TEXT, position INT, user_record_name TEXT,
                email TEXT, role TEXT, permission TEXT, status TEXT)
            """)
    }

    /// One participant row as JSON (keys in snake case, the columns' names), so a whole list is inserted in one statement.
    private struct ParticipantRow: Encodable {
        var participantID: String
        var position: Int
        var userRecordName: String?
        var email: String?
        var role: String
        var permission: String
        var status: String
    }

    /// Records, at `seq`, whether `user` still sees the zone: they do while any share of it
    /// counts them as accepted. Zone tokens the user holds from before `seq` expire.
    func refreshFeed(user: String, zoneID: Int64, seq: Int64) async throws {
        try await tx.execute("""
            INSERT INTO shared_zone_feed (user_record_name, zone_id, seq, visible)
            VALUES (\(user), \(zoneID), \(seq), EXISTS (SELECT 1 FROM share_participants
                WHERE zone_id = \(zoneID) AND user_record_name = \(user) AND status = 'ACCEPTED' AND role <> 'OWNER'))
            ON CONFLICT (user_record_name, zone_id) DO UPDATE SET seq = EXCLUDED.seq, visible = EXCLUDED.visible
            """)
    }
}
