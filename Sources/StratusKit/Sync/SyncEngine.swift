import Foundation
import StratusCloudKit
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
        /// Bytes of record fields per records/modify, kept under the server's body limit (2 MB);
        /// a batch the server still finds too large is halved and sent again.
        public var batchBytes: Int = 1_500_000
        /// Records per change page (`nil`: the server's page size).
        public var resultsLimit: Int?
        /// Attempts for a transient failure before giving up.
        public var maximumAttempts: Int = 5
        /// Multiplies every wait before a retry, the server's `retryAfter` included. 1 is
        /// CKSyncEngine's behaviour; simulations that compress time (the fuzzer) make it smaller.
        public var retryDelayScale: Double = 1
        /// The database subscription the engine makes (as CKSyncEngine does) so pushes say when
        /// to fetch; `nil` makes none.
        public var subscriptionID: String? = "stratus.sync-engine"

        public init(database: CloudDatabase, container: CloudContainer) {
            self.database = database
            self.container = container
        }
    }

    public let configuration: Configuration
    public internal(set) var state: SyncEngineState
    let delegate: any SyncEngineDelegate
    /// Changes a transient per-item failure (THROTTLED, TRY_AGAIN_LATER) holds back until then:
    /// never resent before the server's `retryAfter` (or a second), however soon the app sends.
    var notBefore: [PendingRecordZoneChange: ContinuousClock.Instant] = [:]

    public init(configuration: Configuration, state: SyncEngineState?, delegate: any SyncEngineDelegate) {
        self.configuration = configuration
        self.state = state ?? SyncEngineState()
        self.delegate = delegate
    }

    var database: CloudDatabase { configuration.database }

    // MARK: - Pending changes

    public func add(_ changes: [PendingRecordZoneChange]) { state.add(changes) }
    public func add(_ changes: [PendingDatabaseChange]) { state.add(changes) }
    /// Whether a change is still queued (a failure the engine will retry itself leaves it queued).
    public func isPending(_ change: PendingRecordZoneChange) -> Bool { state.pendingRecordZoneChanges.contains(change) }
    public var hasPendingChanges: Bool { !state.pendingRecordZoneChanges.isEmpty || !state.pendingDatabaseChanges.isEmpty }

    func deliver(_ event: SyncEngineEvent) async throws {
        try await delegate.handleEvent(event, syncEngine: self)
    }

    // MARK: - Fetch

    /// Fetches database changes, then each changed zone's record changes, page by page.
    public func fetchChanges() async throws {
        try await deliver(.willFetchChanges)
        try await checkAccount()
        try await ensureSubscription()
        var zones: [ZoneID] = []
        var token = state.databaseToken
        while true {
            let since = token
            let result: Result<DatabaseChangesResponse, CloudError>
            do {
                result = .success(try await retrying { () async throws(CloudError) in try await self.database.databaseChanges(since: since) })
            } catch {
                result = .failure(error)
            }
            let page: DatabaseChangesResponse
            switch result {
            case .success(let fetched):
                page = fetched
            case .failure(let error) where error.code == .changeTokenExpired && since != nil:
                // The server dropped the database's history: fetch it again from the start (each
                // zone still resumes from its own token, or starts over if that expired too).
                token = nil
                zones = []
                continue
            case .failure(let error):
                throw error
            }
            let deletions = page.zones.filter { $0.deleted == true }.map { ($0.zoneID, $0.deletionReason ?? .deleted) }
            let deleted = deletions.map(\.0)
            let modified = page.zones.filter { $0.deleted != true }.map(\.zoneID)
            for zone in deleted { state.zoneTokens[SyncEngineState.key(zone)] = nil }
            zones.removeAll { deleted.contains($0) }
            zones.append(contentsOf: modified.filter { !zones.contains($0) })
            if !page.zones.isEmpty {
                try await deliver(.fetchedDatabaseChanges(modifications: modified, deletions: deletions))
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
            case .failure(let error) where error.code == .zoneNotFound || error.code == .userDeletedZone:
                // The zone went since the database feed said: tell it as the feed would have,
                // with why (purged: userDeletedZone; reset: the encrypted-data marker).
                let reason: ZoneDeletionReason =
                    error.code == .userDeletedZone ? .purged : error.userDidResetEncryptedData ? .encryptedDataReset : .deleted
                state.zoneTokens[key] = nil
                try await deliver(.fetchedDatabaseChanges(modifications: [], deletions: [(zoneID, reason)]))
                try await deliver(.didFetchRecordZoneChanges(zoneID, error: error))
                return
            case .failure(let error):
                throw error
            }
            var deletions: [RecordDeletion] = []
            for record in page.records where record.deleted == true {
                guard let name = record.recordName else { continue }
                let id = SyncRecordID(zoneID: zoneID, recordName: name)
                let type: String? = if let type = record.recordType { type } else { await delegate.recordType(of: id, syncEngine: self) }
                deletions.append(RecordDeletion(recordID: id, recordType: type))
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
        if previous != nil {
            // Another account (or none): what the engine knew and meant to send was the old one's.
            state = SyncEngineState()
        }
        state.lastUserRecordName = current
        try await deliver(.accountChange(previous: previous, current: current))
        try await deliver(.stateUpdate(state))
    }

    /// Saves the engine's database subscription once per account (one already there will do).
    private func ensureSubscription() async throws {
        guard let id = configuration.subscriptionID, let user = state.lastUserRecordName, state.subscribedUser != user else { return }
        let subscription = Subscription(
            subscriptionID: id, kind: .database, notificationInfo: NotificationInfo(shouldSendContentAvailable: true)
        )
        let database = database
        let results = try await retrying { () async throws(CloudError) in try await database.save([subscription]) }
        if case .failure(let error)? = results.first, error.code != .serverRecordChanged { throw error }
        state.subscribedUser = user
        try await deliver(.stateUpdate(state))
    }

    // MARK: - Retries

    /// Runs `call`, retrying transient failures after the server's `retryAfter` (or a short backoff).
    func retrying<T: Sendable>(_ call: @Sendable () async throws(CloudError) -> T) async throws(CloudError) -> T {
        try await retryingTransient(attempts: configuration.maximumAttempts, delayScale: configuration.retryDelayScale, call)
    }
}
