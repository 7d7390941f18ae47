import StratusModel
import StratusStore

/// A participant's window onto one owner's zone, as their shared database shows it: the
/// shares of the zone they accepted, the records each one covers, and what they may do.
struct SharedZoneView: Sendable {
    /// One accepted share of the zone.
    struct Grant: Sendable {
        var share: StoredShare
        var participant: StoredParticipant
        /// The root and its descendants; `nil` for a zone-wide share (every record).
        var covered: Set<String>?

        /// READ_WRITE by invitation, or for anyone when the share is public READ_WRITE.
        var mayWrite: Bool { participant.permission == .readWrite || share.publicPermission == .readWrite }
    }

    /// The owner's zone in the owner's private database.
    let key: ZoneKey
    /// The zone ID the participant sees (`ownerRecordName` = the owner).
    let zoneID: ZoneID
    let user: String
    /// Zone tokens from before this sequence value are expired for this participant.
    let accessSeq: Int64
    let grants: [Grant]

    /// The records the participant may see; `nil` when a zone-wide share shows them all.
    var visibleNames: Set<String>? {
        var names = Set<String>()
        for grant in grants {
            guard let covered = grant.covered else { return nil }
            names.formUnion(covered)
            names.insert(grant.share.record.name)
        }
        return names
    }

    /// The grants under which a record lies.
    func grants(covering name: String) -> [Grant] {
        grants.filter { $0.covered?.contains(name) ?? true }
    }

    /// The grant of a share record, when the participant accepted that share.
    func grant(ofShare name: String) -> Grant? {
        grants.first { $0.share.record.name == name }
    }

    /// Whether a record is the root of one of the participant's record shares.
    func isRoot(_ name: String) -> Bool {
        grants.contains { $0.share.rootName == name }
    }

    /// The participant's view of the zone a zone ID names in their shared database, or `nil`
    /// when they take part in no live share of it.
    static func resolve(
        _ zoneID: ZoneID?, in database: DatabaseKey, store: any RecordStore & ShareStore
    ) async throws(StoreError) -> SharedZoneView? {
        let user = database.owner
        guard let zoneID, let owner = zoneID.ownerRecordName, owner != ZoneID.currentUserOwnerName, owner != user else {
            return nil
        }
        let zones = try await store.sharedZones(of: user, container: database.container, environment: database.environment)
        guard let entry = zones.first(where: { $0.owner == owner && $0.zone.name == zoneID.zoneName }) else { return nil }
        let ownerDatabase = DatabaseKey(container: database.container, environment: database.environment, scope: .private, owner: owner)
        let key = ZoneKey(database: ownerDatabase, name: zoneID.zoneName)
        var grants: [Grant] = []
        for share in try await store.shares(in: key) {
            guard let participant = share.participant(user: user), participant.status == .accepted else { continue }
            var covered: Set<String>?
            if let root = share.rootName { covered = try await store.hierarchy(rootedAt: [root], in: key) }
            grants.append(Grant(share: share, participant: participant, covered: covered))
        }
        guard !grants.isEmpty else { return nil }
        return SharedZoneView(
            key: key, zoneID: ZoneID(zoneName: zoneID.zoneName, ownerRecordName: owner), user: user,
            accessSeq: entry.accessSeq, grants: grants
        )
    }
}
