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
        _ objects: [RecordKey], to existing: Record?, title: String = "Shared", participants: [ShareParticipant] = [],
        publicPermission: SharePermission = .none
    ) async throws -> Record {
        guard try store.isMirroring else { throw CloudError(.invalidArguments, "sharing needs mirroring on") }
        // What this account's other devices shared meanwhile first: an object is moved into one share only.
        try await sync()
        let objects = try objects.map { try currentKey($0) ?? $0 }
        let graph = try store.relatedGraph(of: objects)
        for key in graph where key.scope != .private || key.zoneName.hasPrefix(Self.shareZonePrefix) && existing?.zoneID != key.zoneID {
            throw CloudError(.alreadyShared, "\(key) is already in a share")
        }
        let move: LocalStore.PendingMove
        if let existing {
            guard let zone = existing.zoneID else { throw CloudError(.invalidArguments, "the share has no zone") }
            move = LocalStore.PendingMove(zone: zone, objects: graph, newShare: nil)
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
    public func persistUpdatedShare(_ share: Record) async throws -> Record {
        guard let zone = share.zoneID else { throw CloudError(.invalidArguments, "the share has no zone") }
        let database = try requireContainer().privateCloudDatabase
        var attempt = share
        for _ in 0..<3 {
            let result = try await database.modify([RecordOperation(.update, attempt)], in: zone).first
            switch result {
            case .success(let saved)?:
                try await sync()
                return saved
            case .failure(let error)? where error.code == .serverRecordChanged:
                guard let server = error.serverRecord else { throw error }
                attempt.recordChangeTag = server.recordChangeTag
            default:
                throw result?.failureValue ?? CloudError(.internalError, "no answer")
            }
        }
        throw CloudError(.serverRecordChanged, "the share kept changing on the server")
    }

    /// Finishes a move a crash or a failure cut short (at sign-in and before each sync). One
    /// the server refuses for good (the share's zone or share is gone) is given up: the objects
    /// stay, unshared, where they are; a transient failure leaves it for the next sync.
    func resumePendingMove() async throws {
        guard let move = try store.pendingMove() else { return }
        do {
            _ = try await carryOut(move)
        } catch let error as CloudError where !error.isTransient && error.code != .notAuthenticated {
            try store.clearPendingMove()
            log(.private, "moveAbandoned")
        }
    }

    /// The server side first (the share zone and its share, each idempotent), then the local move.
    private func carryOut(_ move: LocalStore.PendingMove) async throws -> Record {
        let database = try requireContainer().privateCloudDatabase
        let share: Record
        if let newShare = move.newShare {
            for result in try await database.modifyZones(saving: [move.zone]) {
                if case .failure(let error) = result { throw error }
            }
            if crashAfterShareZoneCreated {
                crashAfterShareZoneCreated = false
                throw CloudError(.internalError, "simulated crash after the share zone was created")
            }
            if let found = try await zoneShare(in: move.zone, database: database) {
                share = found
            } else {
                share = try await createZoneShare(newShare, in: move.zone, database: database)
            }
        } else {
            guard let found = try await zoneShare(in: move.zone, database: database) else {
                throw CloudError(.unknownItem, "\(move.zone.zoneName) has no share")
            }
            share = found
        }
        try await refreshFromServer(move.objects, database: database)
        try store.moveRecords(move.objects, to: move.zone)
        scheduleSyncIfAutomatic()
        return share
    }

    /// Takes the server's latest version of each object before it moves (merged under any local
    /// pending change; one the server deleted goes): the copy made in the share's zone carries
    /// what the account's other devices saved meanwhile, not this device's older view of it.
    private func refreshFromServer(_ keys: [RecordKey], database: CloudDatabase) async throws {
        // Zones in a stable order: a seeded run makes the same requests in the same order.
        for (zone, inZone) in Dictionary(grouping: keys, by: \.zoneID).sorted(by: { "\($0.key)" < "\($1.key)" }) {
            for start in stride(from: 0, to: inZone.count, by: 200) {
                let chunk = Array(inZone[start..<min(start + 200, inZone.count)])
                // A zone gone meanwhile: the fetch reports it, and its rule decides (the move goes
                // on with what this device holds).
                guard let results = try await Self.lookUp(chunk.map(\.recordName), in: zone, database: database) else { break }
                for (key, result) in zip(chunk, results) {
                    switch result {
                    case .success(let record):
                        try await downloadAssets(of: [record], scope: key.scope)
                        try store.importRecord(record, scope: key.scope)
                    case .failure(let error) where error.code == .unknownItem:
                        if try store.record(key)?.serverRecord != nil { try store.importDeletion(key) }
                    case .failure(let error):
                        throw error
                    }
                }
            }
        }
    }

    /// The server's records of these names, or `nil` when their zone is gone.
    private static func lookUp(_ names: [String], in zone: ZoneID, database: CloudDatabase) async throws -> [Result<Record, CloudError>]? {
        do {
            return try await database.records(named: names, in: zone)
        } catch {
            if error.code == .zoneNotFound || error.code == .userDeletedZone { return nil }
            throw error
        }
    }

    private func zoneShare(in zone: ZoneID, database: CloudDatabase) async throws -> Record? {
        if case .success(let share)? = try await database.records(named: [ShareNames.zoneWideShare], in: zone).first { return share }
        return nil
    }

    private func createZoneShare(_ new: LocalStore.PendingMove.NewShare, in zone: ZoneID, database: CloudDatabase) async throws -> Record {
        var share = Record(recordName: ShareNames.zoneWideShare, recordType: ShareNames.recordType, fields: [ShareNames.titleField: .string(new.title)])
        share.participants = new.participants
        share.publicPermission = new.publicPermission
        return try await modifyOne(RecordOperation(.create, share), in: zone, database: database)
    }
}
