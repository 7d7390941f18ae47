import Foundation
import StratusCloudKit
import StratusModel

/// Sending, with CKSyncEngine's rules: zone changes go before record changes (again whenever the
/// delegate adds some, so the `zoneNotFound` recipe — save the zone, re-send the record —
/// terminates); a record change leaves the queue only once the server has answered for it; a
/// request over the server's limits is halved and sent again; every `willSendChanges` gets its
/// `didSendChanges`, errors included, and `sendChanges()` throws at the end if anything failed.
extension SyncEngine {
    /// Sends pending zone changes, then pending record changes in batches (each zone's in order,
    /// within ``Configuration/batchSize`` operations and ``Configuration/batchBytes`` bytes).
    /// - Throws: once everything that could be sent was sent: the first request that failed for
    ///   good (its changes stay pending), else a `partialFailure` holding every refused item's
    ///   error by record name (each already reported to the delegate).
    public func sendChanges() async throws {
        guard hasPendingChanges else { return }
        try await deliver(.willSendChanges)
        var pass = SendPass()
        let now = ContinuousClock.now
        notBefore = notBefore.filter { $0.value > now }
        pass.held.formUnion(notBefore.keys)
        do {
            // The owner's storage is full: nothing more is sent in this pass (the changes stay pending).
            while pass.quotaExceeded == nil {
                if !state.pendingDatabaseChanges.isEmpty && !pass.databaseChangesHeld { try await sendDatabaseChanges(&pass) }
                guard let zone = state.pendingRecordZoneChanges.first(where: { !pass.held.contains($0) })?.recordID.zoneID else { break }
                let changes = state.pendingRecordZoneChanges.filter { $0.recordID.zoneID == zone && !pass.held.contains($0) }
                let batch = try await nextBatch(changes, in: zone, pass: &pass)
                guard !batch.isEmpty else { continue }
                try await send(batch, in: zone, pass: &pass)
            }
        } catch {
            try await deliver(.didSendChanges)
            throw error
        }
        try await deliver(.didSendChanges)
        if let failure = pass.requestFailure { throw failure }
        if !pass.itemFailures.isEmpty {
            throw CloudError(.partialFailure, "\(pass.itemFailures.count) changes failed", partialErrors: pass.itemFailures)
        }
    }

    /// What one `sendChanges()` call keeps track of.
    struct SendPass {
        /// Changes that stay pending but are not sent again in this pass (a failed request, a
        /// record the delegate had no value for, a transient item failure).
        var held: Set<PendingRecordZoneChange> = []
        /// The zone changes failed as a request: they stay pending, not re-sent in this pass.
        var databaseChangesHeld = false
        var requestFailure: CloudError?
        var itemFailures: [String: CloudError] = [:]
        /// Set once the server refused a save for the owner's quota: the pass stops sending.
        var quotaExceeded: CloudError?

        mutating func requestFailed(_ error: CloudError) {
            if requestFailure == nil { requestFailure = error }
        }
    }

    /// One batch's changes with their operations, as many as fit the limits. A save the delegate
    /// has no record for stays pending, held for this pass.
    private func nextBatch(
        _ changes: [PendingRecordZoneChange], in zone: ZoneID, pass: inout SendPass
    ) async throws -> [(change: PendingRecordZoneChange, operation: RecordOperation)] {
        var batch: [(change: PendingRecordZoneChange, operation: RecordOperation)] = []
        var bytes = 0
        for change in changes {
            guard batch.count < configuration.batchSize else { break }
            let operation: RecordOperation
            switch change {
            case .saveRecord(let id):
                guard let found = await delegate.recordToSave(id, syncEngine: self) else {
                    pass.held.insert(change)
                    continue
                }
                operation = found
            case .deleteRecord(let id):
                operation = RecordOperation(.forceDelete, Record(recordName: id.recordName))
            }
            let size = SyncEngine.estimatedSize(of: operation)
            if !batch.isEmpty && bytes + size > configuration.batchBytes { break }
            bytes += size
            batch.append((change, operation))
        }
        return batch
    }

    /// Sends one batch; over the server's limits it is halved until each part fits (a single
    /// record still too large is that record's own failure).
    private func send(
        _ batch: [(change: PendingRecordZoneChange, operation: RecordOperation)], in zone: ZoneID, pass: inout SendPass
    ) async throws {
        let operations = batch.map(\.operation)
        let results: [Result<Record, CloudError>]
        do {
            results = try await retrying { () async throws(CloudError) in
                try await self.database.modify(operations, in: zone, atomic: false)
            }
        } catch where error.code == .limitExceeded && batch.count > 1 {
            let half = batch.count / 2
            try await send(Array(batch[..<half]), in: zone, pass: &pass)
            try await send(Array(batch[half...]), in: zone, pass: &pass)
            return
        } catch where error.code == .limitExceeded {
            results = [.failure(error)]
        } catch {
            // Nothing was answered for these: they stay pending for the next send.
            pass.requestFailed(error)
            if error.code == .quotaExceeded { pass.quotaExceeded = error }
            try await report(
                batch.map { ($0.change, $0.operation, Result<Record, CloudError>.failure(error)) }, keepingFailures: true, pass: &pass
            )
            return
        }
        try await report(zip(batch, results).map { ($0.change, $0.operation, $1) }, keepingFailures: false, pass: &pass)
    }

    /// Answers for sent changes: saved and deleted ones leave the queue; a transient failure or a
    /// full quota stays (held for this pass; a full quota ends the pass); any other failure leaves
    /// it and goes to the delegate, which adds the change again if it wants another try.
    private func report(
        _ answers: [(PendingRecordZoneChange, RecordOperation, Result<Record, CloudError>)], keepingFailures: Bool,
        pass: inout SendPass
    ) async throws {
        var saved: [Record] = []
        var deleted: [SyncRecordID] = []
        var failed: [FailedRecordSave] = []
        var failedDeletes: [(SyncRecordID, CloudError)] = []
        var answered: Set<PendingRecordZoneChange> = []
        for (change, operation, result) in answers {
            switch (change, result) {
            case (.saveRecord, .success(let record)): saved.append(record); answered.insert(change)
            case (.deleteRecord(let id), .success): deleted.append(id); answered.insert(change)
            case (_, .failure(let error)):
                // A transient item failure, a full quota, or a request that failed, keeps the change pending.
                if error.code == .quotaExceeded { pass.quotaExceeded = error }
                if error.isTransient || keepingFailures || error.code == .quotaExceeded { pass.held.insert(change) } else { answered.insert(change) }
                if error.isTransient && !keepingFailures {
                    let wait = (error.retryAfter ?? 1) * configuration.retryDelayScale
                    notBefore[change] = ContinuousClock.now + .milliseconds(Int(wait * 1000))
                }
                if !keepingFailures { pass.itemFailures[change.recordID.recordName] = error }
                if case .deleteRecord(let id) = change { failedDeletes.append((id, error)) } else {
                    failed.append(FailedRecordSave(record: operation.record, error: error, recordID: change.recordID))
                }
            }
        }
        state.pendingRecordZoneChanges.removeAll { answered.contains($0) }
        try await deliver(.sentRecordZoneChanges(saved: saved, deleted: deleted, failed: failed, failedDeletes: failedDeletes))
        try await deliver(.stateUpdate(state))
    }

    private func sendDatabaseChanges(_ pass: inout SendPass) async throws {
        let changes = state.pendingDatabaseChanges
        let saving = changes.compactMap { if case .saveZone(let zone) = $0 { zone } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let zone) = $0 { zone } else { nil } }
        let results: [Result<Zone, CloudError>]
        do {
            results = try await retrying { () async throws(CloudError) in try await self.database.modifyZones(saving: saving, deleting: deleting) }
        } catch {
            // Nothing answered: the zone changes stay pending; the records of their zones wait too.
            pass.requestFailed(error)
            pass.databaseChangesHeld = true
            pass.held.formUnion(state.pendingRecordZoneChanges.filter { change in (saving + deleting).contains(change.recordID.zoneID) })
            try await deliver(.sentDatabaseChanges(saved: [], deleted: [], failed: (saving + deleting).map { ($0, error) }))
            return
        }
        var saved: [ZoneID] = []
        var deleted: [ZoneID] = []
        var failed: [(ZoneID, CloudError)] = []
        for (zone, result) in zip(saving + deleting, results) {
            switch result {
            case .success: if saving.contains(zone) { saved.append(zone) } else { deleted.append(zone) }
            case .failure(let error): failed.append((zone, error)); pass.itemFailures[zone.zoneName] = error
            }
        }
        // Failures go to the delegate, which adds the change again if it wants another try.
        state.pendingDatabaseChanges.removeAll { changes.contains($0) }
        try await deliver(.sentDatabaseChanges(saved: saved, deleted: deleted, failed: failed))
        try await deliver(.stateUpdate(state))
    }

    /// About how many bytes an operation adds to a request body.
    static func estimatedSize(of operation: RecordOperation) -> Int {
        (operation.record.fields ?? [:]).reduce(256) { $0 + $1.key.utf8.count + $1.value.value.dataSize + 32 }
    }
}
