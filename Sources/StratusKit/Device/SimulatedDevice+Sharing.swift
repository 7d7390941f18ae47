import Foundation
import StratusCloudKit
import StratusModel

/// NSPersistentCloudKitContainer's sharing calls on a device, made with CloudKit's API as an app
/// makes them: a `CKShare` with participants looked up by email, saved with `modifyRecords`;
/// invitations accepted with `CKAcceptSharesOperation`; a share left or stopped by deleting it;
/// a zone purged with `CKModifyRecordZonesOperation`. Each then syncs so the mirror shows it.
extension SimulatedDevice {
    /// Someone a share is for, and what they may do.
    public typealias Invitee = ShareInvitee

    /// Shares a private record with these people; returns the saved share. A CKSyncEngine-style
    /// device shares the record and its children in place (a hierarchy share); an
    /// NSPersistentCloudKitContainer-style one moves it with every related object into a new
    /// share zone (``share(_:to:title:participants:publicPermission:)``).
    @discardableResult
    public func share(
        _ key: RecordKey, with invitees: [Invitee], publicPermission: Invitee.Permission = .none, title: String = "Shared"
    ) async throws -> CKShare {
        if style == .persistentCloudKitContainer {
            return try await share([key], to: nil, title: title, participants: invitees, publicPermission: publicPermission)
        }
        try await sync()
        let container = try requireContainer()
        let root = try await container.privateCloudDatabase.record(for: recordID(key))
        let share = CKShare(rootRecord: root, shareID: CKRecord.ID(recordName: "share-\(UUID().uuidString)", zoneID: root.recordID.zoneID))
        share[CKShare.SystemFieldKey.title] = title
        share.publicPermission = publicPermission.cloudKit
        try await invite(invitees, to: share, in: container)
        let saved = try await save(share, with: root, in: container.privateCloudDatabase)
        try await sync()
        return saved
    }

    /// Gives a share exactly these participants (besides its owner), and the public permission
    /// when one is given, as the owner or an administrator: new people are invited, others'
    /// permissions change, and people left out are removed.
    @discardableResult
    public func setParticipants(
        _ invitees: [Invitee], publicPermission: Invitee.Permission? = nil, ofShareCovering key: RecordKey
    ) async throws -> CKShare {
        guard let mirrored = try store.share(covering: key), let name = mirrored.recordName else {
            throw CKError(.unknownItem, "\(key) is not shared")
        }
        let container = try requireContainer()
        let database = key.scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
        let id = CKRecord.ID(recordName: name, zoneID: ckZoneID(key.zoneID, scope: key.scope))
        guard let share = try await database.record(for: id) as? CKShare else { throw CKError(.unknownItem, "\(name) is not a share") }
        let wanted = Set(invitees.map { $0.email.lowercased() })
        for participant in share.participants where participant.role != .owner {
            if !wanted.contains(participant.userIdentity.lookupInfo?.emailAddress?.lowercased() ?? "") { share.removeParticipant(participant) }
        }
        try await invite(invitees, to: share, in: container)
        if let publicPermission { share.publicPermission = publicPermission.cloudKit }
        let saved = try await save(share, with: nil, in: database)
        try await sync()
        return saved
    }

    /// The owner stops sharing: the share is deleted; participants lose the records.
    public func stopSharing(_ key: RecordKey) async throws {
        guard let share = try store.share(covering: key), let name = share.recordName else { return }
        let id = CKRecord.ID(recordName: name, zoneID: ckZoneID(key.zoneID, scope: key.scope))
        _ = try await requireContainer().privateCloudDatabase.deleteRecord(withID: id)
        try await sync()
    }

    /// Accepts the shares behind these URLs and fetches what they show: their metadata first,
    /// then a `CKAcceptSharesOperation`, as an app accepts what the system hands it.
    public func acceptShareInvitations(from urls: [URL]) async throws {
        let container = try requireContainer()
        var metadatas: [CKShare.Metadata] = []
        for (_, result) in try await container.shareMetadatas(for: urls, shouldFetchRootRecord: false) {
            metadatas.append(try result.get())
        }
        let accept = CKAcceptSharesOperation(shareMetadatas: metadatas)
        try await run(accept, in: container) { operation, finished in
            operation.perShareResultBlock = { _, result in
                if case .failure(let error) = result { finished.note(error) }
            }
            operation.acceptSharesResultBlock = { result in finished.end(result) }
        }
        try await sync()
    }

    /// `purgeObjectsAndRecordsInZone`: a shared zone is left — its share deleted from the shared
    /// database, which leaves it for this account alone — and a private zone is deleted on the
    /// server; either way the local copies go.
    public func purgeObjectsAndRecordsInZone(_ zoneID: ZoneID, scope: DatabaseScope) async throws {
        let container = try requireContainer()
        let ckZone = ckZoneID(zoneID, scope: scope)
        if scope == .shared {
            let shares = try store.records(in: .shared, zone: zoneID).filter { ShareNames.isShareType($0.recordType) }
            for share in shares {
                _ = try await container.sharedCloudDatabase.deleteRecord(withID: CKRecord.ID(recordName: share.key.recordName, zoneID: ckZone))
            }
        } else {
            let delete = CKModifyRecordZonesOperation(recordZonesToSave: nil, recordZoneIDsToDelete: [ckZone])
            try await run(delete, in: container.privateCloudDatabase) { operation, finished in
                operation.perRecordZoneDeleteBlock = { _, result in
                    if case .failure(let error) = result { finished.note(error) }
                }
                operation.modifyRecordZonesResultBlock = { result in finished.end(result) }
            }
        }
        try store.purgeZone(zoneID, scope: scope)
    }

    // MARK: - Share questions (answered from the mirror)

    public func isShared(_ key: RecordKey) throws -> Bool { try store.isShared(key) }
    public func isOwner(_ key: RecordKey) throws -> Bool { try store.isOwner(key) }
    public func canUpdateRecord(_ key: RecordKey) throws -> Bool { try store.canUpdateRecord(key) }
    public func canDeleteRecord(_ key: RecordKey) throws -> Bool { try store.canDeleteRecord(key) }

    /// The shares of these records, by record, as the mirror last saw them (`fetchShares(matching:)`).
    public func fetchShares(matching keys: [RecordKey]) throws -> [RecordKey: CKShare] {
        try store.fetchShares(matching: keys).reduce(into: [:]) { shares, found in
            let zoneID = ckZoneID(found.key.zoneID, scope: found.key.scope)
            if let share = CKRecord.received(found.value, in: zoneID) as? CKShare { shares[found.key] = share }
        }
    }

    // MARK: - Helpers

    /// Adds each invitee to `share` as CloudKit makes participants: looked up by email (the
    /// account must be discoverable), then given their permission. One already on the share keeps
    /// their place and takes the new permission.
    func invite(_ invitees: [Invitee], to share: CKShare, in container: CKContainer) async throws {
        for invitee in invitees {
            let email = invitee.email.lowercased()
            if let present = share.participants.first(where: { $0.userIdentity.lookupInfo?.emailAddress?.lowercased() == email }) {
                if present.permission != invitee.permission.cloudKit { present.permission = invitee.permission.cloudKit }
                continue
            }
            let participant = try await container.shareParticipant(forEmailAddress: invitee.email)
            participant.permission = invitee.permission.cloudKit
            share.addParticipant(participant)
        }
    }

    /// Saves a share (with its root record, for a new hierarchy share) and answers the saved
    /// share, or the share's own refusal.
    func save(_ share: CKShare, with root: CKRecord?, in database: CKDatabase) async throws -> CKShare {
        let (saved, _) = try await database.modifyRecords(saving: [root, share].compactMap { $0 }, deleting: [], savePolicy: .ifServerRecordUnchanged)
        guard let result = saved[share.recordID] else { throw CKError(.internalError, "the server did not answer for the share") }
        guard let answered = try result.get() as? CKShare else { throw CKError(.internalError, "the server answered the share with another record") }
        return answered
    }

    func requireContainer() throws -> CKContainer {
        guard let container else { throw CKError(.notAuthenticated, "no account is signed in on \(name)") }
        return container
    }
}

extension ShareInvitee.Permission {
    /// The permission as CloudKit's API names it.
    var cloudKit: CKShare.ParticipantPermission {
        switch self {
        case .none: .none
        case .readOnly: .readOnly
        case .readWrite: .readWrite
        }
    }
}
