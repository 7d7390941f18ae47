import Foundation
import StratusCloudKit
import StratusModel

/// What the device does with the server's answers to a send: saved records take their new
/// change tags, and each refusal is recovered so no edit is lost or left local-only.
extension SimulatedDevice {
    func recordChangesSent(_ sent: CKSyncEngine.Event.SentRecordZoneChanges, scope: DatabaseScope, syncEngine: CKSyncEngine) async throws {
        var failures: [String: CKError.Code] = [:]
        for record in sent.savedRecords {
            let key = key(record.recordID, scope: scope)
            try store.uploaded(wire(record, scope: scope), key: key, through: exporting[key] ?? .max)
        }
        for id in sent.deletedRecordIDs {
            let key = key(id, scope: scope)
            try store.markExported(key, through: exporting[key] ?? .max)
        }
        for failure in sent.failedRecordSaves {
            // Matched by zone and name: the same name may be pending in two zones.
            let id = failure.record.recordID
            failures[id.recordName] = failure.error.code
            let pending = syncEngine.state.pendingRecordZoneChanges.contains(.saveRecord(id))
            try await recover(key(id, scope: scope), from: failure.error, stillPending: pending, syncEngine: syncEngine)
        }
        for (id, error) in sent.failedRecordDeletes {
            failures[id.recordName] = error.code
            let pending = syncEngine.state.pendingRecordZoneChanges.contains(.deleteRecord(id))
            try await recover(key(id, scope: scope), from: error, stillPending: pending, syncEngine: syncEngine)
        }
        log(scope, "sentRecordZoneChanges", failures: failures)
    }

    /// What the device does with a change the server refused. One the engine keeps queued (a
    /// transient failure) is the engine's to retry: only a full quota is noted.
    private func recover(_ key: RecordKey, from error: CKError, stillPending: Bool, syncEngine: CKSyncEngine) async throws {
        if stillPending && error.code != .quotaExceeded { return }
        switch error.code {
        case .serverRecordChanged:
            // Field-level merge: the server's record with this device's pending fields on top;
            // the change stays pending and goes out again with the server's tag (a re-upload
            // after a reset yields to the server's record instead: `LocalStore.importRecord`).
            if let server = try await withAssets(error.serverRecord, scope: key.scope) {
                try store.importRecord(wire(server, scope: key.scope), scope: key.scope)
            }
        case .userDeletedZone where key.scope == .private:
            try zonePurged(ckZoneID(key.zoneID, scope: key.scope), scope: key.scope, syncEngine: syncEngine)
        case .zoneNotFound where key.scope == .private:
            // Save the zone again and re-create the record in it, with every local value: the
            // user's edit is never dropped because the zone went away behind the device's back.
            try store.forgetServerState(key)
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: ckZoneID(key.zoneID, scope: key.scope)))])
        case .unknownItem:
            try store.importDeletion(key)
        case .assetFileNotFound:
            // The file of an asset the app attached went before the send read it: CloudKit failed
            // this record alone. The app is told (the failure is logged), the asset dropped (the
            // field back to what the server holds), and the rest of the change saved again in
            // this sync; with no asset of its own missing, the change waits like any refusal.
            if try store.dropMissingAssets(key).isEmpty {
                refusedThisSync[key] = error
            } else {
                log(key.scope, "assetDropped")
            }
        case .quotaExceeded:
            // The owner's storage is full: the change stays pending (the user's data is never
            // dropped for it) and the app is told; sending resumes on a later sync.
            storageFull = true
            log(key.scope, "quotaExceeded")
        case .permissionFailure, .zoneNotFound, .userDeletedZone, .referenceViolation:
            // Not this account's to write (a read-only share, a share that is gone), or a record
            // whose parent or reference the server no longer has: back to what the server holds.
            try await restoreServerVersion(key)
        default:
            // Refused for another reason (invalid, too large, a fault): the edit stays pending,
            // is not sent again in this sync, and the sync reports the refusal.
            refusedThisSync[key] = error
        }
    }

    /// Puts a refused change back to the server's truth: its version of the record, or — for a
    /// record the server never had (a create refused for permission) — no record at all, so no
    /// silent local-only record stays behind.
    private func restoreServerVersion(_ key: RecordKey) async throws {
        if try store.record(key)?.serverRecord != nil { return try store.revertToServer(key) }
        try store.markExported(key, through: .max)
        guard container != nil else { return }
        switch try await fetchFromServer([recordID(key)], scope: key.scope)[recordID(key)] {
        case .success(let record)?: try store.importRecord(wire(record, scope: key.scope), scope: key.scope)
        case .failure(let error)? where error.code == .unknownItem: try store.importDeletion(key)
        default: break
        }
    }

    /// The server's record of a conflict, with the bytes of its assets: a conflict names the
    /// server's assets but does not download them, so a record with assets the mirror lacks is
    /// fetched once more (`nil` when the server no longer has it).
    private func withAssets(_ server: CKRecord?, scope: DatabaseScope) async throws -> CKRecord? {
        guard let server, !holdsAssets(of: server) else { return server }
        return try? await fetchFromServer([server.recordID], scope: scope)[server.recordID]?.get()
    }

    // MARK: - Names

    /// A zone as the device's store names it: the account's own zones under its user record name.
    func wireZoneID(_ zoneID: CKRecordZone.ID, scope: DatabaseScope) -> ZoneID {
        zoneID.ownerName == CKCurrentUserDefaultName ? ZoneID(zoneName: zoneID.zoneName, ownerRecordName: userRecordName) : zoneID.wire
    }

    /// A zone as CloudKit's API names it: the account's own zones with the default owner.
    func ckZoneID(_ zoneID: ZoneID, scope: DatabaseScope) -> CKRecordZone.ID {
        if scope == .private, zoneID.ownerRecordName == nil || zoneID.ownerRecordName == userRecordName {
            return CKRecordZone.ID(zoneName: zoneID.zoneName)
        }
        return CKRecordZone.ID(wire: zoneID)
    }

    func key(_ id: CKRecord.ID, scope: DatabaseScope) -> RecordKey {
        RecordKey(scope: scope, zoneID: wireZoneID(id.zoneID, scope: scope), recordName: id.recordName)
    }

    func recordID(_ key: RecordKey) -> CKRecord.ID {
        CKRecord.ID(recordName: key.recordName, zoneID: ckZoneID(key.zoneID, scope: key.scope))
    }

    /// A record the engine handed over, as the store keeps it.
    func wire(_ record: CKRecord, scope: DatabaseScope) -> Record {
        record.wireRecord(in: wireZoneID(record.recordID.zoneID, scope: scope))
    }
}
