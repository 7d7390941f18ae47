import Foundation
import StratusModel

/// A sync engine with CKSyncEngine's contract over one database of a ``CloudContainer``.
///
/// The app adds pending changes and asks the engine to send and fetch; the engine talks to
/// the server, and reports everything as ``SyncEngineEvent``s delivered one at a time. Sends
/// go in batches within the server's per-request limit, atomically per zone off; only
/// transient errors are retried (after the server's `retryAfter`); conflicts and permission
/// failures go to the delegate. An expired zone token resets that zone and fetches it again.
public actor SyncEngine {
    /// How the engine works.
    public struct Configuration: Sendable {
        public var database: CloudDatabase
        public var container: CloudContainer
        /// Operations per records/modify (the server's limit: 200 by default).
        public var batchSize: Int = 200
        /// Records per change page (`nil`: the server's page size).
        public var resultsLimit: Int?
        /// Attempts for a transient failure before giving up.
        public var maximumAttempts: Int = 5

        public init(database: CloudDatabase, container: CloudContainer) {
            self.database = database
            self.container = container
        }
    }

    public let configuration: Configuration
    public private(set) var state: SyncEngineState
    private let delegate: any SyncEngineDelegate

    public init(configuration: Configuration, state: SyncEngineState?, delegate: any SyncEngineDelegate) {
        self.configuration = configuration
        self.state = state ?? SyncEngineState()
        self.delegate = delegate
    }

    private var database: CloudDatabase { configuration.database }

    // MARK: - Pending changes

    public func add(_ changes: [PendingRecordZoneChange]) { state.add(changes) }
    public func add(_ changes: [PendingDatabaseChange]) { state.add(changes) }
    public var hasPendingChanges: Bool { !state.pendingRecordZoneChanges.isEmpty || !state.pendingDatabaseChanges.isEmpty }

    private func deliver(_ event: SyncEngineEvent) async throws {
        try await delegate.handleEvent(event, syncEngine: self)
    }

    // MARK: - Fetch

    /// Fetches database changes, then each changed zone's record changes, page by page.
    public func fetchChanges() async throws {
        try await deliver(.willFetchChanges)
        try await checkAccount()
        var zones: [ZoneID] = []
        var token = state.databaseToken
        while true {
            let since = token
            let page = try await retrying { () async throws(CloudError) in
                try await self.database.databaseChanges(since: since)
            }
            let deleted = page.zones.filter { $0.deleted == true }.map(\.zoneID)
            let modified = page.zones.filter { $0.deleted != true }.map(\.zoneID)
            for zone in deleted { state.zoneTokens[SyncEngineState.key(zone)] = nil }
            zones.removeAll { deleted.contains($0) }
            zones.append(contentsOf: modified.filter { !zones.contains($0) })
            if !page.zones.isEmpty {
                try await deliver(.fetchedDatabaseChanges(modifications: modified, deletions: deleted.map { ($0, .deleted) }))
            }
            token = page.syncToken
            if !page.moreComing { break }
        }
        for zone in zones { try await fetchZone(zone) }
        // The database token moves only once its zones are fetched: a fetch cut short (a crash)
        // sees the same zones again and resumes each from its own saved token.
        state.databaseToken = token
        try await deliver(.stateUpdate(state))
        try await deliver(.didFetchChanges)
    }

    private func fetchZone(_ zoneID: ZoneID) async throws {
        try await deliver(.willFetchRecordZoneChanges(zoneID))
        let key = SyncEngineState.key(zoneID)
        while true {
            let token = state.zoneTokens[key]
            let limit = configuration.resultsLimit
            let database = database
            let result: Result<ZoneChangesPage, CloudError>
            do {
                result = .success(try await retrying { () async throws(CloudError) in
                    try await database.zoneChanges(zoneID, since: token, resultsLimit: limit)
                })
            } catch {
                result = .failure(error)
            }
            let page: ZoneChangesPage
            switch result {
            case .success(let fetched):
                page = fetched
            case .failure(let error) where error.code == .changeTokenExpired && token != nil:
                state.zoneTokens[key] = nil
                try await deliver(.zoneChangeTokenExpired(zoneID))
                try await deliver(.stateUpdate(state))
                continue
            case .failure(let error) where error.code == .zoneNotFound:
                state.zoneTokens[key] = nil
                try await deliver(.fetchedDatabaseChanges(modifications: [], deletions: [(zoneID, .deleted)]))
                try await deliver(.didFetchRecordZoneChanges(zoneID, error: error))
                return
            case .failure(let error):
                throw error
            }
            let deletions = page.records.filter { $0.deleted == true }.compactMap { record in
                record.recordName.map { SyncRecordID(zoneID: zoneID, recordName: $0) }
            }
            try await deliver(.fetchedRecordZoneChanges(modifications: page.records.filter { $0.deleted != true }, deletions: deletions))
            state.zoneTokens[key] = page.syncToken
            try await deliver(.stateUpdate(state))
            if !page.moreComing { break }
        }
        try await deliver(.didFetchRecordZoneChanges(zoneID, error: nil))
    }

    private func checkAccount() async throws {
        let current = try await retrying { () async throws(CloudError) in try await self.configuration.container.userRecordName() }
        guard current != state.lastUserRecordName else { return }
        let previous = state.lastUserRecordName
        state.lastUserRecordName = current
        try await deliver(.accountChange(previous: previous, current: current))
        try await deliver(.stateUpdate(state))
    }

    // MARK: - Send

    /// Sends pending zone changes, then pending record changes in batches, each zone's in order.
    public func sendChanges() async throws {
        guard hasPendingChanges else { return }
        try await deliver(.willSendChanges)
        try await sendDatabaseChanges()
        while let first = state.pendingRecordZoneChanges.first {
            let zone = first.recordID.zoneID
            let batch = Array(state.pendingRecordZoneChanges.filter { $0.recordID.zoneID == zone }.prefix(configuration.batchSize))
            try await send(batch, in: zone)
        }
        try await deliver(.didSendChanges)
    }

    private func sendDatabaseChanges() async throws {
        guard !state.pendingDatabaseChanges.isEmpty else { return }
        let changes = state.pendingDatabaseChanges
        let saving = changes.compactMap { if case .saveZone(let zone) = $0 { zone } else { nil } }
        let deleting = changes.compactMap { if case .deleteZone(let zone) = $0 { zone } else { nil } }
        let results = try await retrying { () async throws(CloudError) in try await self.database.modifyZones(saving: saving, deleting: deleting) }
        var saved: [ZoneID] = []
        var deleted: [ZoneID] = []
        var failed: [(ZoneID, CloudError)] = []
        for (zone, result) in zip(saving + deleting, results) {
            switch result {
            case .success: if saving.contains(zone) { saved.append(zone) } else { deleted.append(zone) }
            case .failure(let error): failed.append((zone, error))
            }
        }
        // Failures go to the delegate, which adds the change again if it wants another try.
        state.pendingDatabaseChanges.removeAll { changes.contains($0) }
        try await deliver(.sentDatabaseChanges(saved: saved, deleted: deleted, failed: failed))
        try await deliver(.stateUpdate(state))
    }

    private func send(_ batch: [PendingRecordZoneChange], in zone: ZoneID) async throws {
        var operations: [RecordOperation] = []
        var sent: [PendingRecordZoneChange] = []
        for change in batch {
            switch change {
            case .saveRecord(let id):
                if let operation = await delegate.recordToSave(id, syncEngine: self) {
                    operations.append(operation)
                    sent.append(change)
                }
            case .deleteRecord(let id):
                operations.append(RecordOperation(.forceDelete, Record(recordName: id.recordName)))
                sent.append(change)
            }
        }
        // Changes the delegate dropped leave the queue with the ones sent.
        state.pendingRecordZoneChanges.removeAll { batch.contains($0) }
        guard !operations.isEmpty else { return }
        let request = operations
        let results = try await retrying { () async throws(CloudError) in
            try await self.database.modify(request, in: zone, atomic: false)
        }
        var saved: [Record] = []
        var deleted: [SyncRecordID] = []
        var failed: [FailedRecordSave] = []
        var failedDeletes: [(SyncRecordID, CloudError)] = []
        var retry: [PendingRecordZoneChange] = []
        for ((change, operation), result) in zip(zip(sent, operations), results) {
            switch (change, result) {
            case (.saveRecord, .success(let record)): saved.append(record)
            case (.deleteRecord(let id), .success): deleted.append(id)
            case (_, .failure(let error)) where error.isTransient: retry.append(change)
            case (.saveRecord, .failure(let error)): failed.append(FailedRecordSave(record: operation.record, error: error))
            case (.deleteRecord(let id), .failure(let error)): failedDeletes.append((id, error))
            }
        }
        state.add(retry)
        try await deliver(.sentRecordZoneChanges(saved: saved, deleted: deleted, failed: failed, failedDeletes: failedDeletes))
        try await deliver(.stateUpdate(state))
    }

    // MARK: - Retries

    /// Runs `call`, retrying transient failures after the server's `retryAfter` (or a short backoff).
    private func retrying<T: Sendable>(_ call: @Sendable () async throws(CloudError) -> T) async throws(CloudError) -> T {
        var attempt = 1
        while true {
            do {
                return try await call()
            } catch where error.isTransient && attempt < configuration.maximumAttempts {
                let delay = error.retryAfter ?? 0.05 * Double(1 << attempt)
                try? await Task.sleep(for: .seconds(delay))
                attempt += 1
            }
        }
    }
}
