import Foundation

/// CloudKit's sync engine, as Apple ships it: the app owns its store, adds pending changes to
/// ``state`` and answers two delegate calls; the engine sends in batches, fetches database and
/// zone changes page by page, retries what is transient, and reports everything as events
/// delivered one at a time. With `automaticallySync` it also saves its database subscription,
/// listens on the server's webcourier, fetches when notified and sends soon after changes are
/// added; it stops when released.
public final class CKSyncEngine: @unchecked Sendable {
    /// How an engine works: its database, the state it starts from, its delegate.
    public struct Configuration: @unchecked Sendable {
        public var database: CKDatabase
        public var stateSerialization: State.Serialization?
        public weak var delegate: (any CKSyncEngineDelegate)?
        /// Sync without being asked: fetch on push, send after changes are added (default `true`).
        public var automaticallySync = true
        /// The database subscription's ID (`nil`: the engine's own).
        public var subscriptionID: CKSubscription.ID?
        /// Multiplies every wait before a retry, the server's `retryAfter` included: 1 is Apple's
        /// behaviour; a simulation that compresses time (`stratus fuzz`) makes it smaller.
        package var retryDelayScale: Double = 1
        /// Told when a zone's change token expired, before the engine fetches the zone again from
        /// the start: a simulated device forgets what that fetch cannot confirm (Apple's engine
        /// tells its delegate nothing).
        package var zoneChangeTokenExpired: (@Sendable (CKRecordZone.ID) async -> Void)?
        /// Records per zone change page (`nil`: the server's page size), for simulations that
        /// cut a fetch short between pages.
        package var resultsLimit: Int?

        public init(database: CKDatabase, stateSerialization: State.Serialization?, delegate: any CKSyncEngineDelegate) {
            self.database = database
            self.stateSerialization = stateSerialization
            self.delegate = delegate
        }
    }

    public let database: CKDatabase
    public let state: State
    let configuration: Configuration
    let gate = SyncGate()
    let schedule = SyncSchedule()
    /// Whether this engine asked who is signed in (before its first fetch or send).
    let accountChecked = OnceFlag()

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        self.database = configuration.database
        self.state = State(configuration.stateSerialization)
        // The app's own changes to the state are a state update too (persist them), and in
        // automatic mode a reason to send.
        let weakEngine = WeakEngine(self)
        state.onChange = { weakEngine.engine?.stateChanged() }
        checkAccountAtLaunch()
        if configuration.automaticallySync { startAutomaticSync() }
    }

    /// Asks who is signed in as soon as the engine exists — Apple's engine "automatically
    /// listens for account changes" — so the app hears of a sign-in, switch or sign-out before
    /// any sync (a send or fetch asked meanwhile waits its turn behind this check; one that finds
    /// it failed checks again).
    private func checkAccountAtLaunch() {
        let weakEngine = WeakEngine(self)
        schedule.schedule {
            guard let engine = weakEngine.engine, !engine.accountChecked.isSet else { return }
            _ = try? await engine.gate.run { if !engine.accountChecked.isSet { try await engine.checkAccount() } }
        }
    }

    /// The app changed the state: tell the delegate (one event at a time), and send soon when automatic.
    func stateChanged() {
        let weakEngine = WeakEngine(self)
        schedule.schedule {
            guard let engine = weakEngine.engine else { return }
            _ = try? await engine.gate.run { await engine.deliverState() }
        }
        if configuration.automaticallySync { scheduleSend(after: 0) }
    }

    deinit { schedule.stop() }

    /// Cancels the sends and fetches the engine scheduled itself (automatic mode); a fetch or send
    /// the app started runs to its end. Pending changes stay.
    public func cancelOperations() async {
        schedule.cancelScheduled()
    }

    func deliver(_ event: Event) async {
        await configuration.delegate?.handleEvent(event, syncEngine: self)
    }

    func deliverState() async {
        await deliver(.stateUpdate(Event.StateUpdate(stateSerialization: state.serialization)))
    }

    /// Runs `call`, retrying transient failures (waits scaled by ``Configuration/retryDelayScale``).
    func retrying<T>(_ call: () async throws -> T) async throws -> T {
        try await SyncRetry.run(delayScale: configuration.retryDelayScale, call)
    }

    /// How long a transient failure holds its change back: the server's `retryAfter`, else a second.
    func retryDelay(_ error: CKError) -> Double { (error.retryAfterSeconds ?? 1) * configuration.retryDelayScale }

    var subscriptionID: String { configuration.subscriptionID ?? "CKSyncEngine-\(database.databaseScope == .shared ? "shared" : "private")" }

    // MARK: - Fetch

    /// Fetches database changes, then each changed zone's record changes, page by page.
    public func fetchChanges(_ options: FetchChangesOptions = FetchChangesOptions()) async throws {
        try await fetchChanges(options, reason: .manual)
    }

    func fetchChanges(_ asked: FetchChangesOptions, reason: SyncReason) async throws {
        try await gate.run {
            // The account first: a sign-in, switch or sign-out is reported before any sync.
            try await self.checkAccount()
            var context = FetchChangesContext(reason: reason, options: asked)
            if let delegate = self.configuration.delegate {
                context = FetchChangesContext(reason: reason, options: await delegate.nextFetchChangesOptions(context, syncEngine: self))
            }
            await self.deliver(.willFetchChanges(Event.WillFetchChanges(context: context)))
            do {
                try await self.ensureSubscription()
                try await self.fetchDatabaseChanges()
                let unfetched = self.state.update { $0.unfetchedZones.map(\.id) }
                let ordered = context.options.prioritizedZoneIDs.filter(unfetched.contains) + unfetched.filter { !context.options.prioritizedZoneIDs.contains($0) }
                for zoneID in ordered where context.options.scope.contains(zoneID) {
                    try await self.fetchZone(zoneID)
                }
            } catch {
                await self.deliver(.didFetchChanges(Event.DidFetchChanges(context: context)))
                throw error
            }
            await self.deliver(.didFetchChanges(Event.DidFetchChanges(context: context)))
        }
    }

    /// The database feed since the state's token: the zones it names are remembered as unfetched
    /// (in the state, so a fetch cut short resumes them), deleted ones reported and forgotten.
    private func fetchDatabaseChanges() async throws {
        while true {
            let token = state.update { $0.databaseToken }.map(CKServerChangeToken.init)
            let page: (modifications: [CKDatabase.DatabaseChange.Modification], deletions: [CKDatabase.DatabaseChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool)
            do {
                page = try await retrying { try await self.database.databaseChanges(since: token) }
            } catch let error as CKError where error.code == .changeTokenExpired && token != nil {
                // The server dropped the database's history: read it again from the start.
                state.update { $0.databaseToken = nil }
                continue
            }
            state.update { stored in
                for deletion in page.deletions {
                    let zone = CKSyncEngine.State.Serialization.Zone(deletion.zoneID)
                    stored.zoneTokens[zone.key] = nil
                    stored.unfetchedZones.removeAll { $0 == zone }
                }
                for modification in page.modifications {
                    let zone = CKSyncEngine.State.Serialization.Zone(modification.zoneID)
                    if !stored.unfetchedZones.contains(zone) { stored.unfetchedZones.append(zone) }
                }
                stored.databaseToken = page.changeToken.value
            }
            if !page.modifications.isEmpty || !page.deletions.isEmpty {
                await deliver(.fetchedDatabaseChanges(Event.FetchedDatabaseChanges(modifications: page.modifications, deletions: page.deletions)))
            }
            await deliverState()
            if !page.moreComing { return }
        }
    }

    private func fetchZone(_ zoneID: CKRecordZone.ID) async throws {
        await deliver(.willFetchRecordZoneChanges(Event.WillFetchRecordZoneChanges(zoneID: zoneID)))
        let key = CKSyncEngine.State.Serialization.Zone(zoneID).key
        while true {
            let token = state.update { $0.zoneTokens[key] }.map(CKServerChangeToken.init)
            let page: (modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>], deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool)
            do {
                page = try await retrying { try await self.database.recordZoneChanges(inZoneWith: zoneID, since: token, resultsLimit: self.configuration.resultsLimit) }
            } catch let error as CKError where error.code == .changeTokenExpired && token != nil {
                state.update { $0.zoneTokens[key] = nil }
                await configuration.zoneChangeTokenExpired?(zoneID)
                await deliverState()
                continue
            } catch let error as CKError where error.code == .zoneNotFound || error.code == .userDeletedZone {
                // The zone went since the feed said: report it as the feed would have, with why.
                let reason: CKDatabase.DatabaseChange.Deletion.Reason =
                    error.code == .userDeletedZone ? .purged : (error.userInfo[CKErrorUserDidResetEncryptedDataKey] as? Bool == true ? .encryptedDataReset : .deleted)
                forget(zoneID)
                let deletion = CKDatabase.DatabaseChange.Deletion(zoneID: zoneID, reason: reason)
                await deliver(.fetchedDatabaseChanges(Event.FetchedDatabaseChanges(modifications: [], deletions: [deletion])))
                await deliverState()
                await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: error)))
                return
            } catch {
                // Every willFetchRecordZoneChanges gets its didFetch…, a failure included.
                let reported = error as? CKError ?? CKError(.internalError, "\(error)")
                await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: reported)))
                throw error
            }
            // A record that did not arrive (its asset failed to download) keeps the token where it
            // was: the page is fetched again next time, nothing is skipped for good.
            let failed = page.modificationResultsByID.values.compactMap { result -> (any Error)? in
                if case .failure(let error) = result { error } else { nil }
            }
            let modifications = page.modificationResultsByID.values.compactMap { try? $0.get() }
                .sorted { ($0.record.modificationDate ?? .distantPast, $0.record.recordID.recordName) < ($1.record.modificationDate ?? .distantPast, $1.record.recordID.recordName) }
            await deliver(.fetchedRecordZoneChanges(Event.FetchedRecordZoneChanges(modifications: modifications, deletions: page.deletions)))
            if let error = failed.first { throw error }
            state.update { stored in
                stored.zoneTokens[key] = page.changeToken.value
                if !page.moreComing { stored.unfetchedZones.removeAll { $0.key == key } }
            }
            await deliverState()
            if !page.moreComing { break }
        }
        await deliver(.didFetchRecordZoneChanges(Event.DidFetchRecordZoneChanges(zoneID: zoneID, error: nil)))
    }

    private func forget(_ zoneID: CKRecordZone.ID) {
        let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
        state.update { stored in
            stored.zoneTokens[zone.key] = nil
            stored.unfetchedZones.removeAll { $0 == zone }
        }
    }

    // MARK: - Account and subscription

    /// Who is signed in. Another user than the state's resets the state (their tokens and
    /// changes are not this user's), and so does signing out (``Event/AccountChange/ChangeType/signOut(previousUser:)``);
    /// a token the server refuses (`notAuthenticated`) changes nothing: pending changes wait
    /// until the same user is back.
    func checkAccount() async throws {
        // No account on the device any more (no web auth token at all, unlike one the server
        // refuses): the user signed out. Apple's engine reports it and starts over.
        if database.container.transport?.webAuthToken == nil, let previous = state.update({ $0.user }) {
            state.update { $0.reset(for: nil) }
            accountChecked.set()
            await deliver(.accountChange(Event.AccountChange(changeType: .signOut(previousUser: CKRecord.ID(recordName: previous)))))
            await deliverState()
            throw CKError(.notAuthenticated, "no account is signed in")
        }
        let current = try await retrying { try await self.database.container.userRecordID() }
        accountChecked.set()
        let previous = state.update { $0.user }
        guard previous != current.recordName else { return }
        let change: Event.AccountChange.ChangeType
        if let previous {
            change = .switchAccounts(previousUser: CKRecord.ID(recordName: previous), currentUser: current)
            state.update { $0.reset(for: current.recordName) }
        } else {
            change = .signIn(currentUser: current)
            state.update { $0.user = current.recordName }
        }
        await deliver(.accountChange(Event.AccountChange(changeType: change)))
        await deliverState()
    }

    /// Saves the engine's database subscription once per account.
    private func ensureSubscription() async throws {
        let (user, subscribed) = state.update { ($0.user, $0.subscribedUser) }
        guard let user, subscribed != user else { return }
        let subscription = CKDatabaseSubscription(subscriptionID: subscriptionID)
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        _ = try await retrying { try await self.database.save(subscription) }
        state.update { $0.subscribedUser = user }
        await deliverState()
    }
}
