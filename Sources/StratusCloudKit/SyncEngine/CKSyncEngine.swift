import Foundation

/// CloudKit's sync engine, as Apple ships it: the app owns its store, adds pending changes to
/// ``state`` and answers two delegate calls; the engine sends in batches, fetches database and
/// zone changes page by page, retries what is transient, and reports everything as events
/// delivered one at a time. With `automaticallySync` it also saves its database subscription,
/// listens on the server's webcourier, fetches when notified and sends soon after changes are
/// added; it stops when released.
///
/// The rules it keeps, each decided in ``SyncRules``:
/// - A change added again takes its first place in the list with a newer sequence, so one in
///   flight stays pending; the app's own `add`, `remove` and `hasPendingUntrackedChanges` are
///   each reported in a `stateUpdate`.
/// - A new engine asks who is signed in at once and reports a sign-in, switch or sign-out before
///   any sync. Another user resets the state, and so does signing out; a token the server refuses
///   (`notAuthenticated`) keeps every change and asks again before the next send.
/// - Fetches and sends run one at a time (`SyncGate`) and deliver events one at a time in Apple's
///   order; the delegate's `nextFetchChangesOptions` is asked before each fetch request.
/// - What the engine retries itself (the network, an unavailable service, rate limits, a busy
///   zone, a refused token, a cancelled request) stays pending, the transient ones held until
///   `retryAfter` (kept in the state, so a relaunch waits it out too); anything else refused,
///   `quotaExceeded` included, is reported once and leaves the list for the app to add again.
/// - Automatic mode (`SyncSchedule`) fetches at start, sends what a restored state holds
///   pending, sends 100 ms after changes are added and long-polls the webcourier, all holding the
///   engine weakly. A failed fetch, a subscription not saved and changes kept pending are tried
///   again on their own after a back-off (``SyncRules/backOff(attempt:)``). Time is read, and
///   waited, on `SyncClock`.
/// - No change leaves the list for a size: batches are cut into requests the server takes and
///   halved when it still finds one too large (``SyncRules/requests(for:limit:)``).
public final class CKSyncEngine: Sendable {
    /// How an engine works: its database, the state it starts from, its delegate.
    public struct Configuration: Sendable {
        public var database: CKDatabase
        public var stateSerialization: State.Serialization?
        public weak var delegate: (any CKSyncEngineDelegate)?
        /// Sync without being asked: fetch on push, send after changes are added (default `true`).
        public var automaticallySync = true
        /// The database subscription's ID (`nil`: the engine's own).
        public var subscriptionID: CKSubscription.ID?
        /// Where a simulated device's engine departs from Apple's (`stratus fuzz`, StratusKit);
        /// an app's engine leaves it as it is: Apple's behaviour.
        package var simulation = Simulation()
        /// What the engine calls in place of ``database`` (`nil`: the database itself) — a test's
        /// scripted fake.
        package var syncDatabase: (any SyncDatabase)?

        public init(database: CKDatabase, stateSerialization: State.Serialization?, delegate: any CKSyncEngineDelegate) {
            self.database = database
            self.stateSerialization = stateSerialization
            self.delegate = delegate
        }
    }

    public let database: CKDatabase
    public let state: State
    let configuration: Configuration
    /// What the engine calls: the database, or a test's fake (``Configuration/syncDatabase``).
    let connection: any SyncDatabase
    let gate = SyncGate()
    let schedule = SyncSchedule()
    /// Whether this engine knows who is signed in (asked at launch; asked again after the server
    /// refused the token, before the next send).
    let accountChecked = LockedFlag()

    public init(_ configuration: Configuration) {
        self.configuration = configuration
        self.database = configuration.database
        self.connection = configuration.syncDatabase ?? configuration.database
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

    /// The app changed the state: tell the delegate (one event at a time, even when the syncs
    /// are cancelled meanwhile), and send soon when automatic.
    func stateChanged() {
        let weakEngine = WeakEngine(self)
        schedule.scheduleReport {
            guard let engine = weakEngine.engine else { return }
            _ = try? await engine.gate.run { await engine.deliverState() }
        }
        if configuration.automaticallySync { scheduleSend(after: 0) }
    }

    deinit { schedule.stop() }

    /// Cancels every fetch and send under way or waiting its turn — those the engine scheduled
    /// itself and those the app started, whose calls throw `operationCancelled`. What was sent
    /// stays sent; every change not answered stays pending.
    public func cancelOperations() async {
        schedule.cancelAll()
    }

    func deliver(_ event: Event) async {
        await configuration.delegate?.handleEvent(event, syncEngine: self)
    }

    func deliverState() async {
        await deliver(.stateUpdate(Event.StateUpdate(stateSerialization: state.serialization)))
    }

    /// Runs `call`, retrying transient failures (waiting on ``Configuration/clock``).
    func retrying<T>(_ call: () async throws -> T) async throws -> T {
        try await SyncRetry.run(clock: configuration.simulation.clock, call)
    }

    /// The time now, on the engine's clock.
    var now: Date { configuration.simulation.clock.now }

    var subscriptionID: String { configuration.subscriptionID ?? "CKSyncEngine-\(connection.databaseScope == .shared ? "shared" : "private")" }

    // MARK: - Account and subscription

    /// Who is signed in. Another user than the state's resets the state (their tokens and
    /// changes are not this user's), and so does signing out (``Event/AccountChange/ChangeType/signOut(previousUser:)``);
    /// a token the server refuses (`notAuthenticated`) changes nothing: pending changes wait
    /// until the same user is back.
    func checkAccount() async throws {
        // No account on the device any more (no web auth token at all, unlike one the server
        // refuses) after one was: the user signed out. Apple's engine reports it and starts over.
        let previous = state.update { $0.user }
        let signedOut = previous != nil && !connection.holdsAccount
        let current = signedOut ? nil : try await retrying { try await self.connection.userRecordID() }
        accountChecked.set()
        let verdict = SyncRules.accountVerdict(previous: previous, current: current?.recordName)
        let change: Event.AccountChange.ChangeType
        switch verdict {
        case .unchanged:
            if signedOut { throw CKError(.notAuthenticated, "no account is signed in") }
            return
        case .signIn:
            guard let current else { return }
            change = .signIn(currentUser: current)
            state.update { $0.user = current.recordName }
        case .switchAccounts(let previous, _):
            guard let current else { return }
            change = .switchAccounts(previousUser: CKRecord.ID(recordName: previous), currentUser: current)
            state.update { $0.reset(for: current.recordName) }
        case .signOut(let previous):
            change = .signOut(previousUser: CKRecord.ID(recordName: previous))
            state.update { $0.reset(for: nil) }
        }
        await deliver(.accountChange(Event.AccountChange(changeType: change)))
        await deliverState()
        if signedOut { throw CKError(.notAuthenticated, "no account is signed in") }
    }

    /// Saves the engine's database subscription once per account.
    func ensureSubscription() async throws {
        let (user, subscribed) = state.update { ($0.user, $0.subscribedUser) }
        guard SyncRules.needsSubscription(user: user, subscribedUser: subscribed), let user else { return }
        let subscription = CKDatabaseSubscription(subscriptionID: subscriptionID)
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        subscription.notificationInfo = info
        _ = try await retrying { try await self.connection.save(subscription) }
        state.update { $0.subscribedUser = user }
        await deliverState()
    }
}
