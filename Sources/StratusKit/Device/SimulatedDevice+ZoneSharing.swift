import Foundation
import StratusCloudKit
import StratusModel

/// NSPersistentCloudKitContainer's sharing: `share(_:to:)` with no share makes a new zone
/// (`com.apple.coredata.cloudkit.share.<UUID>`) with a zone-wide share and moves the object graph
/// into it; with a share it moves more objects into that share's zone. The move is promised in the
/// store file before the server is asked for anything and made in one local transaction, so a
/// crash at any point finishes on the next sign-in with no object lost or doubled.
extension SimulatedDevice {
    /// The zone-name prefix of NSPersistentCloudKitContainer's share zones.
    public static let shareZonePrefix = "com.apple.coredata.cloudkit.share."

    /// `share(_:to:)`: moves `objects` and every object related to them into a share's zone —
    /// a new one with a new zone-wide share when `existing` is `nil`, else `existing`'s — and
    /// returns the share. Completion means the objects are assigned to the share; they reach the
    /// server with the device's next sync (this call syncs once).
    /// - Throws: `alreadyShared` when an object (or one related to it) is in a share already;
    ///   `invalidArguments` while mirroring is off (sharing is the mirroring container's API).
    @discardableResult
    public func share(
        _ objects: [RecordKey], to existing: CKShare?, title: String = "Shared", participants: [Invitee] = [],
        publicPermission: Invitee.Permission = .none
    ) async throws -> CKShare {
        guard try store.isMirroring else { throw CKError(.invalidArguments, "sharing needs mirroring on") }
        // What this account's other devices shared meanwhile first: an object is moved into one share only.
        try await sync()
        let objects = try objects.map { try currentKey($0) ?? $0 }
        let graph = try store.relatedGraph(of: objects)
        let existingZone = existing.map { wireZoneID($0.recordID.zoneID, scope: .private) }
        for key in graph where key.scope != .private || key.zoneName.hasPrefix(Self.shareZonePrefix) && existingZone != key.zoneID {
            throw CKError(.alreadyShared, "\(key) is already in a share")
        }
        let move: LocalStore.PendingMove
        if let existingZone {
            move = LocalStore.PendingMove(zone: existingZone, objects: graph, newShare: nil)
        } else {
            let zone = ZoneID(zoneName: Self.shareZonePrefix + UUID().uuidString, ownerRecordName: userRecordName)
            move = LocalStore.PendingMove(
                zone: zone, objects: graph,
                newShare: .init(title: title, participants: participants, publicPermission: publicPermission)
            )
        }
        try store.setPendingMove(move)
        let share = try await carryOut(move)
        try await sync()
        return share
    }

    /// Where a record is now (objects move into share zones in NSPersistentCloudKitContainer style):
    /// `key` itself, or the record of that name in another zone of its scope.
    public func currentKey(_ key: RecordKey) throws -> RecordKey? {
        if try store.record(key) != nil { return key }
        return try store.records(in: key.scope).first { $0.key.recordName == key.recordName }?.key
    }

    /// `persistUpdatedShare(_:in:)`: saves a share changed by the app (participants, permissions,
    /// title) and mirrors the server's answer. When the share changed on the server meanwhile (a
    /// participant accepted), the app's changes are applied to the server's version and saved again.
    @discardableResult
    public func persistUpdatedShare(_ share: CKShare) async throws -> CKShare {
        let database = try requireContainer().privateCloudDatabase
        var attempt = share
        for _ in 0..<3 {
            do {
                let saved = try await save(attempt, with: nil, in: database)
                try await sync()
                return saved
            } catch let error as CKError where error.code == .serverRecordChanged {
                guard let server = error.serverRecord as? CKShare else { throw error }
                attempt = Self.applying(share, to: server)
            }
        }
        throw CKError(.serverRecordChanged, "the share kept changing on the server")
    }

    /// The server's version of a share with the app's changes on top: its participants (by
    /// email, with their permissions), its public permission and its title.
    private static func applying(_ changed: CKShare, to server: CKShare) -> CKShare {
        let email = { (participant: CKShare.Participant) in participant.userIdentity.lookupInfo?.emailAddress?.lowercased() }
        let wanted = changed.participants.filter { $0.role != .owner }
        for participant in server.participants where participant.role != .owner {
            if let mine = wanted.first(where: { email($0) == email(participant) }) {
                if participant.permission != mine.permission { participant.permission = mine.permission }
            } else {
                server.removeParticipant(participant)
            }
        }
        for participant in wanted where !server.participants.contains(where: { email($0) == email(participant) }) {
            server.addParticipant(participant)
        }
        server.publicPermission = changed.publicPermission
        server[CKShare.SystemFieldKey.title] = changed[CKShare.SystemFieldKey.title]
        return server
    }

    /// Finishes a move a crash or a failure cut short (at sign-in and before each sync). One
    /// the server refuses for good (the share's zone or share is gone) is given up: the objects
    /// stay, unshared, where they are; a transient failure leaves it for the next sync.
    func resumePendingMove() async throws {
        guard let move = try store.pendingMove() else { return }
        do {
            _ = try await carryOut(move)
        } catch let error as CKError where !error.code.isTransient && error.code != .notAuthenticated {
            try store.clearPendingMove()
            log(.private, "moveAbandoned")
        }
    }

    /// The server side first (the share zone and its share, each idempotent), then the local move.
    private func carryOut(_ move: LocalStore.PendingMove) async throws -> CKShare {
        let container = try requireContainer()
        let database = container.privateCloudDatabase
        let zoneID = ckZoneID(move.zone, scope: .private)
        let share: CKShare
        if let newShare = move.newShare {
            let save = CKModifyRecordZonesOperation(recordZonesToSave: [CKRecordZone(zoneID: zoneID)], recordZoneIDsToDelete: nil)
            try await run(save, in: database) { operation, finished in
                operation.perRecordZoneSaveBlock = { _, result in
                    if case .failure(let error) = result { finished.note(error) }
                }
                operation.modifyRecordZonesResultBlock = { result in finished.end(result) }
            }
            if crashAfterShareZoneCreated {
                crashAfterShareZoneCreated = false
                throw CKError(.internalError, "simulated crash after the share zone was created")
            }
            if let found = try await zoneShare(in: zoneID, database: database) {
                share = found
            } else {
                share = try await createZoneShare(newShare, in: zoneID, container: container)
            }
        } else {
            guard let found = try await zoneShare(in: zoneID, database: database) else {
                throw CKError(.unknownItem, "\(move.zone.zoneName) has no share")
            }
            share = found
        }
        try await refreshFromServer(move.objects)
        try store.moveRecords(move.objects, to: move.zone)
        scheduleSyncIfAutomatic()
        return share
    }

    /// Takes the server's latest version of each object before it moves (merged under any local
    /// pending change; one the server deleted goes): the copy made in the share's zone carries
    /// what the account's other devices saved meanwhile, not this device's older view of it.
    private func refreshFromServer(_ keys: [RecordKey]) async throws {
        // Zones in a stable order: a seeded run makes the same requests in the same order.
        for (_, inZone) in Dictionary(grouping: keys, by: \.zoneID).sorted(by: { "\($0.key)" < "\($1.key)" }) {
            for start in stride(from: 0, to: inZone.count, by: 200) {
                let chunk = Array(inZone[start..<min(start + 200, inZone.count)])
                let found = try await fetchFromServer(chunk.map(recordID), scope: .private)
                for key in chunk {
                    switch found[recordID(key)] {
                    case .success(let record)?:
                        try store.importRecord(wire(record, scope: key.scope), scope: key.scope)
                    case .failure(let error)? where error.code == .unknownItem:
                        if try store.record(key)?.serverRecord != nil { try store.importDeletion(key) }
                    case .failure(let error)? where error.code == .zoneNotFound || error.code == .userDeletedZone:
                        // The zone is gone meanwhile: the fetch reports it, and its rule decides
                        // (the move goes on with what this device holds).
                        break
                    case .failure(let error)?:
                        throw error
                    case nil:
                        throw CKError(.internalError, "the server did not answer for \(key)")
                    }
                }
            }
        }
    }

    private func zoneShare(in zoneID: CKRecordZone.ID, database: CKDatabase) async throws -> CKShare? {
        do {
            return try await database.record(for: CKRecord.ID(recordName: CKRecordNameZoneWideShare, zoneID: zoneID)) as? CKShare
        } catch let error as CKError where error.code == .unknownItem {
            return nil
        }
    }

    private func createZoneShare(_ new: LocalStore.PendingMove.NewShare, in zoneID: CKRecordZone.ID, container: CKContainer) async throws -> CKShare {
        let share = CKShare(recordZoneID: zoneID)
        share[CKShare.SystemFieldKey.title] = new.title
        share.publicPermission = new.publicPermission.cloudKit
        try await invite(new.participants, to: share, in: container)
        return try await save(share, with: nil, in: container.privateCloudDatabase)
    }
}
