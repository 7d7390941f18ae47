import Foundation
import StratusCloudKit
import StratusModel

/// The device as its engines' delegate: fetched changes are imported into the store, sends
/// are built from it, and refusals are handled as NSPersistentCloudKitContainer does —
/// conflicts merged field by field and sent again, refused changes put back to the server's
/// version.
extension SimulatedDevice: SyncEngineDelegate {
    public func recordToSave(_ id: SyncRecordID, syncEngine: SyncEngine) async -> RecordOperation? {
        let key = RecordKey(scope: syncEngine.configuration.database.scope, zoneID: id.zoneID, recordName: id.recordName)
        guard let operation = try? store.uploadOperation(for: key) else { return nil }
        return await uploadingAssets(operation, key: key)
    }

    /// The type the mirror holds for a record (the server's tombstones name no type).
    public func recordType(of id: SyncRecordID, syncEngine: SyncEngine) async -> String? {
        let key = RecordKey(scope: syncEngine.configuration.database.scope, zoneID: id.zoneID, recordName: id.recordName)
        return (try? store.record(key))??.recordType
    }

    public func handleEvent(_ event: SyncEngineEvent, syncEngine: SyncEngine) async throws {
        let scope = syncEngine.configuration.database.scope
        switch event {
        case .stateUpdate(let state):
            try store.setMeta("engine.\(scope.rawValue)", String(decoding: try JSONEncoder().encode(state), as: UTF8.self))
            if let limit = crashAfterFetchedPages, fetchedPages >= limit {
                crashAfterFetchedPages = nil
                throw CloudError(.internalError, "simulated crash after \(limit) pages")
            }
        case .accountChange(let previous, let current):
            log(scope, "accountChange")
            if previous != nil, previous != current { try store.purgeAll() }
        case .fetchedDatabaseChanges(_, let deletions):
            log(scope, "fetchedDatabaseChanges")
            for (zone, reason) in deletions {
                switch reason {
                case .purged where scope == .private, .encryptedDataReset where scope == .private:
                    // The data is gone from the server, not from this device: upload it again into
                    // a new zone of the same name (the rule; see Sources/StratusKit/README.md).
                    log(scope, "zoneReset.\(reason.rawValue)")
                    if try store.requeueZone(zone, scope: scope) > 0 { await syncEngine.add([PendingDatabaseChange.saveZone(zone)]) }
                default:
                    try store.purgeZone(zone, scope: scope)
                }
            }
        case .zoneChangeTokenExpired(let zone):
            log(scope, "zoneChangeTokenExpired")
            try store.forgetUnchangedRecords(in: zone, scope: scope)
        case .fetchedRecordZoneChanges(let modifications, let deletions):
            fetchedPages += 1
            log(scope, "fetchedRecordZoneChanges")
            try await downloadAssets(of: modifications, scope: scope)
            for record in modifications { try store.importRecord(record, scope: scope) }
            for deletion in deletions {
                let id = deletion.recordID
                try store.importDeletion(RecordKey(scope: scope, zoneID: id.zoneID, recordName: id.recordName))
            }
        case .sentRecordZoneChanges(let saved, let deleted, let failed, let failedDeletes):
            var failures: [String: CloudError.Code] = [:]
            for record in saved {
                guard let name = record.recordName, let zone = record.zoneID else { continue }
                let key = RecordKey(scope: scope, zoneID: zone, recordName: name)
                try store.uploaded(record, key: key, through: exporting[key] ?? .max)
            }
            for id in deleted {
                let key = RecordKey(scope: scope, zoneID: id.zoneID, recordName: id.recordName)
                try store.markExported(key, through: exporting[key] ?? .max)
            }
            for failure in failed {
                // Matched by zone and name: the same name may be pending in two zones.
                let key = RecordKey(scope: scope, zoneID: failure.recordID.zoneID, recordName: failure.recordID.recordName)
                failures[key.recordName] = failure.error.code
                let pending = await syncEngine.isPending(.saveRecord(failure.recordID))
                try await recover(key, from: failure.error, stillPending: pending, syncEngine: syncEngine)
            }
            for (id, error) in failedDeletes {
                failures[id.recordName] = error.code
                let key = RecordKey(scope: scope, zoneID: id.zoneID, recordName: id.recordName)
                try await recover(key, from: error, stillPending: await syncEngine.isPending(.deleteRecord(id)), syncEngine: syncEngine)
            }
            log(scope, "sentRecordZoneChanges", failures: failures)
        case .sentDatabaseChanges: log(scope, "sentDatabaseChanges")
        case .willFetchChanges: log(scope, "willFetchChanges")
        case .willFetchRecordZoneChanges: log(scope, "willFetchRecordZoneChanges")
        case .didFetchRecordZoneChanges: log(scope, "didFetchRecordZoneChanges")
        case .didFetchChanges: log(scope, "didFetchChanges")
        case .willSendChanges: log(scope, "willSendChanges")
        case .didSendChanges: log(scope, "didSendChanges")
        }
    }

    /// What the device does with a change the server refused. One the engine keeps queued (a
    /// failed request, a transient failure) is the engine's to retry: only a full quota is noted.
    private func recover(_ key: RecordKey, from error: CloudError, stillPending: Bool, syncEngine: SyncEngine) async throws {
        if stillPending && error.code != .quotaExceeded { return }
        switch error.code {
        case .serverRecordChanged:
            // Field-level merge: the server's record with this device's pending fields on top;
            // the change stays pending and goes out again with the server's tag.
            if let server = error.serverRecord {
                try await downloadAssets(of: [server], scope: key.scope)
                try store.importRecord(server, scope: key.scope)
            }
        case .zoneNotFound where key.scope == .private, .userDeletedZone where key.scope == .private:
            // Save the zone again and re-create the record in it, with every local value: the
            // user's edit is never dropped because the zone went away behind the device's back
            // (a purged zone too: this device uploads a purged zone's data again, see the README).
            try store.forgetServerState(key)
            await syncEngine.add([PendingDatabaseChange.saveZone(key.zoneID)])
        case .unknownItem:
            try store.importDeletion(key)
        case .quotaExceeded:
            // The owner's storage is full: the change stays pending (the user's data is never
            // dropped for it) and the app is told; sending resumes on a later sync.
            storageFull = true
            log(key.scope, "quotaExceeded")
        default:
            // Refused for good (permission, invalid): back to what the server holds.
            try await restoreServerVersion(key)
        }
    }

    /// Puts a refused change back to the server's truth: its version of the record, or — for a
    /// record the server never had (a create refused for permission) — no record at all, so no
    /// silent local-only record stays behind.
    private func restoreServerVersion(_ key: RecordKey) async throws {
        if try store.record(key)?.serverRecord != nil { return try store.revertToServer(key) }
        try store.markExported(key, through: .max)
        guard let container else { return }
        let database = key.scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
        switch try await database.records(named: [key.recordName], in: key.zoneID).first {
        case .success(let record)?: try store.importRecord(record, scope: key.scope)
        case .failure(let error)? where error.code == .unknownItem: try store.importDeletion(key)
        default: break
        }
    }
}
