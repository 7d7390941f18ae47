import Foundation
import StratusCloudKit
import StratusModel

/// NSPersistentCloudKitContainer's sharing calls on a device: share, change participants, stop
/// sharing, accept invitations, purge a zone — each talks to the server, then syncs so the
/// mirror shows the result.
extension SimulatedDevice {
    /// Shares a private record with these participants; returns the share. A CKSyncEngine-style
    /// device shares the record and its children in place (a hierarchy share); an
    /// NSPersistentCloudKitContainer-style one moves it with every related object into a new
    /// share zone (``share(_:to:title:participants:publicPermission:)``).
    @discardableResult
    public func share(
        _ key: RecordKey, with participants: [ShareParticipant], publicPermission: SharePermission = .none, title: String = "Shared"
    ) async throws -> Record {
        if style == .persistentCloudKitContainer {
            return try await share([key], to: nil, title: title, participants: participants, publicPermission: publicPermission)
        }
        try await sync()
        let database = try requireContainer().privateCloudDatabase
        var share = Record(recordName: "share-\(UUID().uuidString)", recordType: ShareNames.recordType, fields: [ShareNames.titleField: .string(title)])
        share.forRecord = RecordPointer(recordName: key.recordName)
        share.participants = participants
        share.publicPermission = publicPermission
        let saved = try await modifyOne(RecordOperation(.create, share), in: key.zoneID, database: database)
        try await sync()
        return saved
    }

    /// Replaces a share's participants (and public permission), as the owner or an administrator.
    @discardableResult
    public func setParticipants(
        _ participants: [ShareParticipant], publicPermission: SharePermission? = nil, ofShareCovering key: RecordKey
    ) async throws -> Record {
        guard let current = try store.share(covering: key), let name = current.recordName else {
            throw CloudError(.unknownItem, "\(key) is not shared")
        }
        var update = Record(recordName: name, recordType: ShareNames.recordType, recordChangeTag: current.recordChangeTag)
        update.participants = participants
        update.publicPermission = publicPermission
        let database = try database(for: key.scope)
        let saved = try await modifyOne(RecordOperation(.update, update), in: key.zoneID, database: database)
        try await sync()
        return saved
    }

    /// The owner stops sharing: the share record is deleted; participants lose the records.
    public func stopSharing(_ key: RecordKey) async throws {
        guard let share = try store.share(covering: key), let name = share.recordName else { return }
        try await modifyOne(
            RecordOperation(.forceDelete, Record(recordName: name)), in: key.zoneID, database: requireContainer().privateCloudDatabase
        )
        try await sync()
    }

    /// Accepts the shares behind these URLs (or short GUIDs) and fetches what they show.
    public func acceptShareInvitations(from urls: [String]) async throws {
        for result in try await requireContainer().acceptShares(urls) {
            if case .failure(let error) = result { throw error }
        }
        try await sync()
    }

    /// `purgeObjectsAndRecordsInZone`: a shared zone is left (the share stays for others), a
    /// private zone is deleted on the server; either way the local copies go.
    public func purgeObjectsAndRecordsInZone(_ zoneID: ZoneID, scope: DatabaseScope) async throws {
        let container = try requireContainer()
        if scope == .shared {
            let shares = try store.records(in: .shared, zone: zoneID).filter { ShareNames.isShareType($0.recordType) }
            for share in shares {
                _ = try await container.sharedCloudDatabase.modify(
                    [RecordOperation(.forceDelete, Record(recordName: share.key.recordName))], in: zoneID
                )
            }
        } else {
            _ = try await container.privateCloudDatabase.modifyZones(saving: [], deleting: [zoneID])
        }
        try store.purgeZone(zoneID, scope: scope)
    }

    // MARK: - Share questions (answered from the mirror)

    public func isShared(_ key: RecordKey) throws -> Bool { try store.isShared(key) }
    public func isOwner(_ key: RecordKey) throws -> Bool { try store.isOwner(key) }
    public func canUpdateRecord(_ key: RecordKey) throws -> Bool { try store.canUpdateRecord(key) }
    public func canDeleteRecord(_ key: RecordKey) throws -> Bool { try store.canDeleteRecord(key) }
    public func fetchShares(matching keys: [RecordKey]) throws -> [RecordKey: Record] { try store.fetchShares(matching: keys) }

    /// One records/modify operation: its record, or its own error thrown.
    @discardableResult
    func modifyOne(_ operation: RecordOperation, in zoneID: ZoneID, database: CloudDatabase) async throws -> Record {
        let result = try await database.modify([operation], in: zoneID).first
        guard case .success(let record)? = result else { throw result?.failureValue ?? CloudError(.internalError, "no answer") }
        return record
    }

    func requireContainer() throws -> CloudContainer {
        guard let container else { throw CloudError(.notAuthenticated, "no account is signed in on \(name)") }
        return container
    }

    func database(for scope: DatabaseScope) throws -> CloudDatabase {
        let container = try requireContainer()
        return scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
