import Foundation
import StratusCloudKit
import StratusModel

/// The device as its engines' delegate (`CKSyncEngineDelegate`, as an app writes it): fetched
/// changes are imported into the store, batches are built from it, and refusals are handled as
/// NSPersistentCloudKitContainer does — conflicts merged field by field and sent again, refused
/// changes put back to the server's version.
extension SimulatedDevice: CKSyncEngineDelegate {
    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        let scope = Self.scope(of: syncEngine)
        // An engine the device let go (signed out, or restarted after a crash) is no longer heard.
        guard engines[scope] === syncEngine, interruption == nil else { return }
        do {
            try await handle(event, scope: scope, syncEngine: syncEngine)
        } catch {
            // A change the device could not write: stop as a crash would, keeping what was saved.
            interruption = error
            log(scope, "interrupted")
        }
    }

    public func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let scope = Self.scope(of: syncEngine)
        guard engines[scope] === syncEngine, interruption == nil else { return nil }
        // The store's saves not yet confirmed (a refused one stays unsent there, though it left
        // the engine's queue).
        let unsentSaves = ((try? store.pendingExports(in: scope)) ?? []).filter { $0.kind == .save }.map(\.key)
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { change in
            let changed = key(change.recordID, scope: scope)
            guard context.options.scope.contains(change), refusedThisSync[changed] == nil else { return false }
            // A move's deletion (the same name unsent as a save in another zone: a share's move)
            // waits until the server confirmed the creation: the object is never in no zone.
            guard case .deleteRecord = change else { return true }
            return !unsentSaves.contains { $0.recordName == changed.recordName && $0.zoneID != changed.zoneID }
        }
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { id in
            await self.recordToSave(id, scope: scope, syncEngine: syncEngine)
        }
    }

    static func scope(of engine: CKSyncEngine) -> DatabaseScope {
        engine.database.databaseScope == .shared ? .shared : .private
    }

    /// The record that sends a pending save: the store's local state on top of the server's last
    /// version (whose change tag it carries), the fields the app cleared since set to `nil` (so
    /// the save clears those keys alone), its new assets attached as files to upload (a file gone
    /// from the device fails this record alone: `recover`). `nil` keeps the change pending (the
    /// store could not be read); a record the store no longer holds leaves the queue (its
    /// deletion is a change of its own).
    private func recordToSave(_ id: CKRecord.ID, scope: DatabaseScope, syncEngine: CKSyncEngine) async -> CKRecord? {
        let key = key(id, scope: scope)
        let found: RecordOperation??
        do { found = try store.uploadOperation(for: key) } catch { found = nil }
        // The store could not be read: the change stays pending for the next send.
        guard let found else { return nil }
        guard let operation = found else {
            syncEngine.state.remove(pendingRecordZoneChanges: [.saveRecord(id)])
            return nil
        }
        let base = operation.record.recordChangeTag == nil ? nil : (try? store.record(key))??.serverRecord
        let record = CKRecord.toSave(operation.record, in: id.zoneID, base: base)
        if let held = base?.fields {
            for name in (try? store.pendingClearedFields(key)) ?? [] where held[store.naming.serverName(name)] != nil {
                record[store.naming.serverName(name)] = nil
            }
        }
        attachNewAssets(to: record, from: operation, key: key)
        return record
    }

    private func handle(_ event: CKSyncEngine.Event, scope: DatabaseScope, syncEngine: CKSyncEngine) async throws {
        switch event {
        case .stateUpdate(let update):
            try store.setMeta(Self.stateKey(scope), String(decoding: try JSONEncoder().encode(update.stateSerialization), as: UTF8.self))
            if let limit = crashAfterFetchedPages, fetchedPages >= limit {
                crashAfterFetchedPages = nil
                throw CKError(.internalError, "simulated crash after \(limit) pages")
            }
        case .accountChange(let change):
            log(scope, "accountChange")
            switch change.changeType {
            case .signIn: break
            case .signOut, .switchAccounts: try store.purgeAll()
            }
        case .fetchedDatabaseChanges(let changes):
            log(scope, "fetchedDatabaseChanges")
            for deletion in changes.deletions { try zoneDeleted(deletion, scope: scope, syncEngine: syncEngine) }
        case .fetchedRecordZoneChanges(let changes):
            fetchedPages += 1
            log(scope, "fetchedRecordZoneChanges")
            try keepDownloadedAssets(of: changes.modifications.map(\.record))
            let records = changes.modifications.map { wire($0.record, scope: scope) }
            for record in records { try store.importRecord(record, scope: scope) }
            for deletion in changes.deletions { try store.importDeletion(key(deletion.recordID, scope: scope)) }
            if style == .persistentCloudKitContainer, scope == .private { try finishMoves(seenIn: records) }
        case .sentRecordZoneChanges(let sent):
            try await recordChangesSent(sent, scope: scope, syncEngine: syncEngine)
            // On its own, the engine sends again what was merged or re-created after a refusal.
            if isSyncingAutomatically { try queueExports(scope, on: syncEngine) }
        case .sentDatabaseChanges: log(scope, "sentDatabaseChanges")
        case .willFetchChanges(let fetch):
            log(scope, "willFetchChanges")
            noteFetch(fetch.context, scope: scope)
        case .willFetchRecordZoneChanges: log(scope, "willFetchRecordZoneChanges")
        case .didFetchRecordZoneChanges: log(scope, "didFetchRecordZoneChanges")
        case .didFetchChanges: log(scope, "didFetchChanges")
        case .willSendChanges: log(scope, "willSendChanges")
        case .didSendChanges: log(scope, "didSendChanges")
        }
    }

    /// NSPersistentCloudKitContainer style: an object lives in one zone, and objects only move
    /// into share zones. A copy left in its old zone by a move that was not finished — the
    /// deletion cut off with a sync, then lost with the device's sign-out, or never seen by the
    /// device that re-uploads a reset zone — is deleted by whichever device of the account sees
    /// both copies, as the move would have.
    private func finishMoves(seenIn imported: [Record]) throws {
        let names = Set(imported.compactMap(\.recordName))
        guard !names.isEmpty else { return }
        let local = try store.records(in: .private)
        let inShares = Set(local.filter { $0.key.zoneName.hasPrefix(Self.shareZonePrefix) }.map(\.key.recordName))
        for record in local where !record.key.zoneName.hasPrefix(Self.shareZonePrefix) {
            let name = record.key.recordName
            guard inShares.contains(name), names.contains(name) else { continue }
            try store.delete(record.key)
            log(.private, "moveFinished")
        }
    }

    /// A zone the server no longer has, and why (Apple's rules for each reason). Reset with the
    /// account's encrypted data: the data is gone from the server, not from this device, so it
    /// is uploaded again into a new zone of the same name. Purged by the user in Settings: see
    /// ``zonePurged(_:scope:syncEngine:)``. Deleted: the local data goes too — every record the
    /// server had, with any edit to it not sent yet — but a private record the server never saw
    /// (made since the deletion, by the device that deleted the zone or one that had not heard
    /// yet) is unsent data of the user's, and goes up into the zone saved again. A shared zone
    /// deleted goes whole.
    private func zoneDeleted(_ deletion: CKDatabase.DatabaseChange.Deletion, scope: DatabaseScope, syncEngine: CKSyncEngine) throws {
        let zone = wireZoneID(deletion.zoneID, scope: scope)
        switch deletion.reason {
        case .deleted where scope == .private:
            log(scope, "zoneDeleted")
            if try store.purgeServerCopies(in: zone, scope: scope) > 0 {
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: deletion.zoneID))])
            }
        case .purged where scope == .private:
            try zonePurged(deletion.zoneID, scope: scope, syncEngine: syncEngine)
        case .encryptedDataReset where scope == .private:
            log(scope, "zoneReset.\(ZoneDeletionReason.encryptedDataReset.rawValue)")
            if try store.requeueZone(zone, scope: scope) > 0 {
                syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: deletion.zoneID))])
            }
        default:
            try store.purgeZone(zone, scope: scope)
        }
    }

    /// The user purged the zone in Settings: every copy the server had is deleted here and never
    /// sent again (Apple's rule for `.purged`); records the server never saw — made since, or
    /// not sent yet — are the user's new data and go up into the zone saved again.
    func zonePurged(_ zoneID: CKRecordZone.ID, scope: DatabaseScope, syncEngine: CKSyncEngine) throws {
        log(scope, "zoneReset.\(ZoneDeletionReason.purged.rawValue)")
        if try store.purgeServerCopies(in: wireZoneID(zoneID, scope: scope), scope: scope) > 0 {
            syncEngine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zoneID))])
        }
    }

    /// The engine's hook for an expired zone token: records the fetch from the start will not
    /// confirm are forgotten (unless changed locally).
    func zoneChangeTokenExpired(_ zoneID: CKRecordZone.ID, scope: DatabaseScope) {
        guard interruption == nil else { return }
        log(scope, "zoneChangeTokenExpired")
        do {
            try store.forgetUnchangedRecords(in: wireZoneID(zoneID, scope: scope), scope: scope)
        } catch {
            interruption = error
        }
    }
}
