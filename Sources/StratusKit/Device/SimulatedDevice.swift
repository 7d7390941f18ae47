import Foundation
import StratusCloudKit
import StratusModel

/// A simulated device: one account signed in on one device, with its own local store file, a
/// `CKContainer` and two `CKSyncEngine`s (private and shared) — StratusCloudKit's public API is
/// its only way to the server, as an app's. A test calls ``sync()`` by hand, or turns on
/// automatic mode (``startAutomaticSync()``): the engines then sync on their own, fetching on
/// push and sending soon after each local save — so N devices of M accounts run in one process
/// against one real server.
public actor SimulatedDevice {
    /// An account as a device signs it in.
    public struct Account: Sendable, Hashable {
        public var name: String
        /// The container environment's API token.
        public var apiToken: String
        /// The user's web auth token (`nil`: no user signed in on the device).
        public var webAuthToken: String?

        public init(name: String, apiToken: String, webAuthToken: String?) {
            self.name = name
            self.apiToken = apiToken
            self.webAuthToken = webAuthToken
        }

        /// The container `identifier` on the server at `serverURL` as this account, its requests
        /// naming `deviceID` (a device's own, so its pushes skip it): the one way a device, the
        /// fuzzer's checker and the tests reach the server as an account.
        public func container(_ identifier: String, serverURL: String, deviceID: String? = nil) throws -> CKContainer {
            guard let url = URL(string: serverURL) else { throw CKError(.badContainer, "not a server URL: \(serverURL)") }
            var connection = StratusConnection(serverURL: url, apiToken: apiToken, webAuthToken: webAuthToken)
            connection.deviceID = deviceID
            return CKContainer(identifier: identifier, connection: connection)
        }
    }

    /// One thing the device's engines reported, kept for tests and logs.
    public struct LoggedEvent: Sendable {
        public var scope: DatabaseScope
        public var name: String
        /// Records the server refused in this event, with the CKError code.
        public var failures: [String: CKError.Code]
    }

    /// How a device mirrors and shares, chosen when it is made.
    public enum MirroringStyle: String, Sendable, Hashable, CaseIterable {
        /// A CKSyncEngine app: its own zone and names; `share` makes a hierarchy share in place.
        case syncEngine
        /// NSPersistentCloudKitContainer: records in `com.apple.coredata.cloudkit.zone` with `CD_`
        /// names; `share` moves the object graph into a new zone with a zone-wide share.
        case persistentCloudKitContainer
    }

    /// NSPersistentCloudKitContainer's private zone.
    public static let coreDataZoneName = "com.apple.coredata.cloudkit.zone"

    nonisolated public let name: String
    nonisolated public let style: MirroringStyle
    nonisolated public let serverURL: String
    nonisolated public let containerIdentifier: String
    /// The private zone new records go to.
    nonisolated public let zoneName: String
    public private(set) var store: LocalStore
    public private(set) var account: Account?
    public private(set) var userRecordName: String?
    public private(set) var events: [LoggedEvent] = []
    /// Test hook for a crash: the fetch stops (throws) once this many record pages are saved.
    public var crashAfterFetchedPages: Int?
    /// Test hook for a crash: `share(_:to:)` stops (throws) once the share zone exists, before
    /// anything moves.
    public var crashAfterShareZoneCreated = false
    /// Records per change page the engines ask for (`nil`: the server's page size).
    public var resultsLimit: Int?
    /// Multiplies the engines' waits before retries, the server's `retryAfter` included.
    public var retryDelayScale = 1.0
    /// Whether the last sync found the owner's storage full (QUOTA_EXCEEDED): what an app shows
    /// the user. Pending changes stay pending; the next sync that sends them clears it.
    public internal(set) var storageFull = false

    /// The signed-in account's container: everything the device asks the server goes through it.
    var container: CKContainer?
    /// One CKSyncEngine per database (private, shared), as an app makes them.
    var engines: [DatabaseScope: CKSyncEngine] = [:]
    /// Set when the device "crashes" during a sync (a test hook, or a change it could not write):
    /// from then on nothing the engines report is applied or saved, and the sync ends by
    /// throwing it; the engines start again from the state last saved, as after a relaunch.
    var interruption: (any Error)?
    /// Changes the server refused this sync for a reason that keeps them pending (see
    /// `recover`): not sent again until the next sync, which ends by throwing the first.
    var refusedThisSync: [RecordKey: CKError] = [:]
    /// The last history entry each record's pending send covers.
    var exporting: [RecordKey: Int64] = [:]
    var fetchedPages = 0
    /// The sync running now: another waits for it (syncs never interleave).
    var runningSync: Task<Void, any Error>?
    /// Whether the engines sync on their own (automatic mode).
    public internal(set) var isSyncingAutomatically = false
    /// Fetches the engines started on their own in automatic mode — at launch and on each push
    /// (tests and logs).
    public internal(set) var scheduledFetches = 0

    /// A device with its store at `storePath`. `zoneName` and `naming` default to the style's:
    /// `Journal` with plain names, or NSPersistentCloudKitContainer's zone with `CD_` names.
    public init(
        name: String, serverURL: String, container: String, storePath: String, style: MirroringStyle = .syncEngine,
        zoneName: String? = nil, naming: RecordNaming? = nil
    ) throws {
        self.name = name
        self.style = style
        self.serverURL = serverURL
        self.containerIdentifier = container
        let coreData = style == .persistentCloudKitContainer
        self.zoneName = zoneName ?? (coreData ? Self.coreDataZoneName : "Journal")
        self.store = try LocalStore(path: storePath, naming: naming ?? (coreData ? .coreData : .plain))
    }

    public func setResultsLimit(_ limit: Int?) { resultsLimit = limit }
    public func setRetryDelayScale(_ scale: Double) { retryDelayScale = scale }
    public func setCrashAfterFetchedPages(_ pages: Int?) { crashAfterFetchedPages = pages }
    public func setCrashAfterShareZoneCreated(_ crash: Bool) { crashAfterShareZoneCreated = crash }

    // MARK: - Accounts

    /// Signs an account in. A store holding another account's data is purged first.
    public func signIn(_ account: Account) async throws {
        let container = try account.container(containerIdentifier, serverURL: serverURL, deviceID: name)
        // Asked again after transient failures, as the OS does.
        let user = try await SyncRetry.run(attempts: 5, clock: clock) { try await container.userRecordID().recordName }
        if let previous = try store.account(), previous != user { try store.purgeAll() }
        try store.setAccount(user)
        self.account = account
        self.userRecordName = user
        self.container = container
        try startEngines()
        // A share's move cut short by a crash is finished first (or by the next sync, when the
        // server cannot be reached now: signing in does not depend on it).
        do { try await resumePendingMove() } catch where Self.isServerRefusal(error) && !Self.isRefusedToken(error) {
            log(.private, "moveDeferred")
        }
    }

    /// Makes the two engines from the state each last saved (as an app does at launch).
    func startEngines() throws {
        engines = [:]
        interruption = nil
        guard let container else { return }
        for scope in [DatabaseScope.private, .shared] {
            let saved = try store.meta(Self.stateKey(scope)).flatMap {
                try? JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: Data($0.utf8))
            }
            let database = scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
            var configuration = CKSyncEngine.Configuration(database: database, stateSerialization: saved, delegate: self)
            // By hand, the device syncs when its test says, one sync at a time; in automatic
            // mode the engines sync on their own, as an app's.
            configuration.automaticallySync = isSyncingAutomatically
            configuration.simulation = simulation(scope)
            engines[scope] = CKSyncEngine(configuration)
        }
    }

    /// How this device's engines depart from Apple's (each deviation named by StratusCloudKit).
    func simulation(_ scope: DatabaseScope) -> CKSyncEngine.Configuration.Simulation {
        var simulation = CKSyncEngine.Configuration.Simulation()
        simulation.clock = clock
        simulation.resultsLimit = resultsLimit
        simulation.zoneChangeTokenExpired = { [weak self] zoneID in await self?.zoneChangeTokenExpired(zoneID, scope: scope) }
        return simulation
    }

    /// The ways this device's engines depart from Apple's, by StratusCloudKit's names for them.
    package var engineDeviations: [CKSyncEngine.Configuration.Simulation.Deviation] { simulation(.private).deviations }

    /// The device's clock: waits pass ``retryDelayScale`` times as long as in real time.
    var clock: SyncClock { SyncClock(rate: 1 / retryDelayScale) }

    /// Where an engine's state is saved in the store.
    static func stateKey(_ scope: DatabaseScope) -> String { "engine.\(scope.rawValue)" }

    /// Signs out: the account's local data is purged and syncing stops.
    public func signOut() throws {
        isSyncingAutomatically = false
        try store.purgeAll()
        account = nil
        userRecordName = nil
        container = nil
        engines = [:]
        exporting = [:]
    }

    // MARK: - App writes and reads

    /// The key of a record of this device's private zone.
    public func privateKey(_ recordName: String) -> RecordKey {
        RecordKey(scope: .private, zoneID: ZoneID(zoneName: zoneName, ownerRecordName: userRecordName), recordName: recordName)
    }

    /// Saves fields of a record (the app's write; lands in history, exported on the next sync).
    @discardableResult
    public func save(_ key: RecordKey, type: String, fields: [String: Field], parent: String? = nil, author: TransactionAuthor = .app) throws -> RecordKey {
        try store.save(LocalRecord(key: key, recordType: type, fields: fields, parentName: parent), author: author)
        scheduleSyncIfAutomatic()
        return key
    }

    /// Clears fields of a record (the app setting them to `nil`): cleared on the server by the
    /// next sync, those keys alone; the record's other fields are untouched.
    public func clear(_ fields: [String], of key: RecordKey) throws {
        try store.clear(fields, of: key)
        scheduleSyncIfAutomatic()
    }

    public func delete(_ key: RecordKey) throws {
        try store.delete(key)
        scheduleSyncIfAutomatic()
    }

    public func records(in scope: DatabaseScope) throws -> [LocalRecord] { try store.records(in: scope) }

    /// Switches mirroring at run time; changes made while off are exported when it is back on.
    public func setMirroring(_ on: Bool) throws { try store.setMirroring(on) }

    /// Moves the store file; nothing is lost.
    public func moveStore(to path: String) throws { store = try store.move(to: path) }

    // MARK: - Sync

    /// Sends local changes (re-sending after merged conflicts), then fetches both databases.
    /// A sync asked for while one runs starts after it.
    public func sync() async throws {
        while let running = runningSync { _ = try? await running.value }
        let task = Task {
            // Cleared by the sync itself, on the actor, before anyone waiting on it resumes.
            defer { self.runningSync = nil }
            try await self.syncNow()
        }
        runningSync = task
        try await task.value
    }

    /// One sync. A web auth token the server refuses (revoked, expired: `notAuthenticated`) is
    /// not an account change — CKSyncEngine's rule: the device stops syncing and keeps every
    /// local change, unsent ones included, until the same user signs in again (a different user
    /// purges it then, in ``signIn(_:)``). The sync throws `notAuthenticated`.
    private func syncNow() async throws {
        do {
            try await sendAndFetch()
        } catch let error as CKError where error.code == .notAuthenticated {
            log(.private, "notAuthenticated")
            suspend()
            throw error
        }
    }

    /// Whether `error` is the server's answer (a refusal, in CloudKit's terms) rather than a
    /// local failure: what the device's calls throw when the server said no.
    public static func isServerRefusal(_ error: any Error) -> Bool { error is CKError }

    /// Whether `error` is the server refusing the account's web auth token (revoked, expired):
    /// the device stopped syncing and kept its edits until the same user signs in again.
    public static func isRefusedToken(_ error: any Error) -> Bool {
        (error as? CKError)?.code == .notAuthenticated
    }

    /// Stops syncing without touching the store: the account's data and unsent edits stay.
    private func suspend() {
        isSyncingAutomatically = false
        account = nil
        container = nil
        engines = [:]
        exporting = [:]
    }

    private func sendAndFetch() async throws {
        guard try store.isMirroring, !engines.isEmpty else { return }
        // A share's move a failure cut short is finished before anything else is sent.
        try await resumePendingMove()
        storageFull = false
        refusedThisSync = [:]
        for scope in [DatabaseScope.private, .shared] {
            guard let engine = engines[scope] else { continue }
            for _ in 0..<4 {
                if try queueExports(scope, on: engine) == 0 || storageFull { break }
                do {
                    try await engine.sendChanges()
                } catch let error as CKError where error.code == .partialFailure {
                    // Each refused change went to the delegate, which recovered it (merge,
                    // re-create, or back to the server's version); the loop sends what remains.
                } catch let error as CKError where error.code == .quotaExceeded {
                    // The whole request was refused for the quota: the changes stay pending.
                    storageFull = true
                    log(scope, "quotaExceeded")
                }
                try endIfInterrupted()
            }
            fetchedPages = 0
            try await engine.fetchChanges()
            try endIfInterrupted()
        }
        if let refusal = refusedThisSync.sorted(by: { "\($0.key)" < "\($1.key)" }).first?.value { throw refusal }
    }

    /// After a "crash" (see ``interruption``): the engines start again from their saved state,
    /// and the sync throws.
    private func endIfInterrupted() throws {
        guard let interruption else { return }
        try startEngines()
        throw interruption
    }

    /// Adds the store's unsent changes of `scope` (but those refused this sync) to the engine's
    /// pending changes; answers how many there are.
    @discardableResult
    func queueExports(_ scope: DatabaseScope, on engine: CKSyncEngine) throws -> Int {
        let pending = try store.pendingExports(in: scope).filter { refusedThisSync[$0.key] == nil }
        for export in pending { exporting[export.key] = export.throughHistoryID }
        engine.state.add(pendingRecordZoneChanges: pending.map { export in
            let id = recordID(export.key)
            return export.kind == .save ? .saveRecord(id) : .deleteRecord(id)
        })
        return pending.count
    }

    func log(_ scope: DatabaseScope, _ name: String, failures: [String: CKError.Code] = [:]) {
        events.append(LoggedEvent(scope: scope, name: name, failures: failures))
    }
}
