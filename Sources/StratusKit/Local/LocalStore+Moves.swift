import Foundation
import GRDB
import StratusModel

/// Moving objects between zones, as NSPersistentCloudKitContainer's `share(_:to:)` moves an object
/// graph into a share's zone: which objects go together, the move itself (one local transaction:
/// every object is in exactly one zone at any instant, whatever crashes), and the move a device
/// promised but has not made yet, kept in the file so a restart finishes it.
extension LocalStore {
    /// A move into a share's zone, saved before the server is asked for anything.
    public struct PendingMove: Sendable, Hashable, Codable {
        /// The share's zone (new, or an existing share's).
        public var zone: ZoneID
        public var objects: [RecordKey]
        /// For a new share: its title, participants and public permission (`nil`: the zone's share exists).
        public var newShare: NewShare?

        /// What a new zone-wide share is made with.
        public struct NewShare: Sendable, Hashable, Codable {
            public var title: String
            public var participants: [ShareInvitee]
            public var publicPermission: ShareInvitee.Permission
        }
    }

    /// The objects that go with `keys` (NSPersistentCloudKitContainer walks relationships
    /// deeply): parents and children, and to-one references kept as the other record's name in a
    /// field (Core Data's foreign keys) in either direction, within each object's zone. Shares are
    /// the server's and never move. Parents come before their children.
    public func relatedGraph(of keys: [RecordKey]) throws -> [RecordKey] {
        var byZone: [ZoneID: [String: LocalRecord]] = [:]
        var found: [RecordKey] = []
        var seen = Set<RecordKey>()
        var queue = keys
        while let key = queue.popLast() {
            guard !seen.contains(key) else { continue }
            if byZone[key.zoneID] == nil {
                byZone[key.zoneID] = Dictionary(
                    try records(in: key.scope, zone: key.zoneID).map { ($0.key.recordName, $0) }, uniquingKeysWith: { first, _ in first }
                )
            }
            guard let zone = byZone[key.zoneID], let record = zone[key.recordName], !ShareNames.isShareType(naming.serverName(record.recordType)) else {
                continue
            }
            seen.insert(key)
            found.append(key)
            var related: [String] = record.parentName.map { [$0] } ?? []
            for case .string(let name) in record.fields.values.map(\.value) where zone[name] != nil { related.append(name) }
            for other in zone.values where other.parentName == key.recordName || other.fields.values.contains(where: { $0.value == .string(key.recordName) }) {
                related.append(other.key.recordName)
            }
            queue.append(contentsOf: related.map { RecordKey(scope: key.scope, zoneID: key.zoneID, recordName: $0) })
        }
        return try orderedParentsFirst(found)
    }

    private func orderedParentsFirst(_ keys: [RecordKey]) throws -> [RecordKey] {
        var depth: [RecordKey: Int] = [:]
        for key in keys {
            var level = 0
            var current = try record(key)
            var visited = Set<String>()
            while let parent = current?.parentName, visited.insert(parent).inserted {
                level += 1
                current = try record(RecordKey(scope: key.scope, zoneID: key.zoneID, recordName: parent))
            }
            depth[key] = level
        }
        return keys.sorted { (depth[$0] ?? 0, $0.recordName) < (depth[$1] ?? 0, $1.recordName) }
    }

    /// Moves records into `zone` in one transaction: each is created there with every value
    /// (same name, type, parent; no server state, so it uploads as new) and deleted from its old
    /// zone, both as the app's changes, so the next export sends the creations and the deletions.
    /// A record already moved (a move resumed after a crash) is left as it is.
    public func moveRecords(_ keys: [RecordKey], to zone: ZoneID) throws {
        try pool.write { db in
            for key in keys where key.zoneID != zone {
                guard let old = try LocalStore.fetch(key, in: db) else { continue }
                var moved = LocalRecord(
                    key: RecordKey(scope: key.scope, zoneID: zone, recordName: key.recordName), recordType: old.recordType,
                    fields: old.fields, parentName: old.parentName
                )
                moved.changeTag = nil
                try write(moved, in: db)
                try appendHistory(moved.key, .save, fields: moved.fields.keys.sorted(), author: .app, exported: false, in: db)
                try LocalStore.remove(key, in: db)
                try appendHistory(key, .delete, fields: [], author: .app, exported: false, in: db)
            }
            try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.pendingMoveKey])
        }
    }

    static let pendingMoveKey = "move.pending"

    /// The move a device started and has not finished (at most one at a time).
    public func pendingMove() throws -> PendingMove? {
        try meta(Self.pendingMoveKey).flatMap { try? JSONDecoder().decode(PendingMove.self, from: Data($0.utf8)) }
    }

    /// Forgets the move a device promised (it was given up).
    func clearPendingMove() throws {
        try pool.write { db in try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [Self.pendingMoveKey]) }
    }

    func setPendingMove(_ move: PendingMove) throws {
        try setMeta(Self.pendingMoveKey, String(decoding: try JSONEncoder().encode(move), as: UTF8.self))
    }
}
