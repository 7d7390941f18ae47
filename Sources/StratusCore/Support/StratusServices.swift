import Logging
import ServiceLifecycle
import StratusStore

/// Every Core service over one store, built once at start-up and shared by all requests.
public struct StratusServices: Sendable {
    public let records: RecordService
    public let zones: ZoneService
    public let changes: ChangeService
    public let identity: IdentityService
    /// Server-to-server keys and signed requests.
    public let serverKeys: ServerKeys
    /// The sign-in page behind `redirectURL`.
    public let signIn: SignInService
    public let admin: AdminService
    /// Reset, export and import of a container environment's data (test fixtures).
    public let fixtures: DataFixtures
    public let users: UserService
    public let queries: QueryService
    public let schema: SchemaService
    public let shares: ShareService
    public let subscriptions: SubscriptionService
    public let pushTokens: PushTokenService
    /// Delivers notifications of committed changes; its hub wakes long-polls.
    public let push: PushDispatcher
    /// Fault rules and buggify, consulted by the server on every CKWS request.
    public let faults: FaultInjector
    /// The newest commits and fired faults (admin `activity`, the console's timeline).
    public let activity: ActivityLog
    /// The newest requests the server answered (the request log's lines, for the console).
    public let requests = RecentRequests()
    /// Asset uploads, downloads, rereference and collection.
    public let assets: AssetService
    public let configuration: CoreConfiguration
    /// Core's background work, each loop a `Service` for the application's group, in start
    /// order (a group shuts down in reverse, so the relay outlives the push worker that
    /// announces through it, and the timeline's journal outlives the push worker whose commits it
    /// saves): the instance relay, shared fault rules, the timeline's journal, the hub's timeout
    /// sweeper, push delivery, and the scheduled asset collection. They run once: one
    /// application's life (a graceful shutdown finishes their queues for good); a new run takes
    /// new `StratusServices`.
    public let background: [any Service]

    public init(
        store: any CompleteStore,
        blobs: (any BlobStore)? = nil, configuration: CoreConfiguration = CoreConfiguration(),
        hub: any NotificationHub = LocalNotificationHub(), signals: (any InstanceSignals)? = nil,
        logger: Logger = Logger(label: "stratus")
    ) {
        // Instances sharing a store tell each other what changed; one alone has no one to tell.
        let relay = InstanceRelay(signals: signals)
        let localHub = hub
        let relayedHub = relay.isShared ? RelayedNotificationHub(local: hub, relay: relay) : nil
        let hub: any NotificationHub = relayedHub ?? hub
        let access = DatabaseAccess(configuration: configuration)
        let blobStore: any BlobStore
        if let blobs {
            blobStore = blobs
        } else {
            do { blobStore = try FileBlobStore.temporary() } catch { preconditionFailure("cannot make a temporary blob directory: \(error)") }
        }
        let assets = AssetService(store: store, blobs: blobStore, access: access, configuration: configuration, keys: AssetKeys())
        self.assets = assets
        let activity = ActivityLog()
        self.activity = activity
        let schemaCache = SchemaCache(store: store, relay: relay)
        // Public notifications go to the subscribers the schema's security roles let read the record.
        let push = PushDispatcher(
            store: store, hub: hub, retention: NotificationRetention(), now: configuration.now, activity: activity, relay: relay,
            logger: Logger(label: "stratus.push"), schema: schemaCache
        )
        self.push = push
        let defaultZones = DefaultZones(store: store)
        self.records = RecordService(
            store: store, access: access, schema: schemaCache, defaultZones: defaultZones, configuration: configuration, push: push,
            assets: assets
        )
        self.schema = SchemaService(store: store, cache: schemaCache)
        self.zones = ZoneService(store: store, access: access, defaultZones: defaultZones, configuration: configuration, push: push)
        self.queries = QueryService(
            store: store, assets: assets, access: access, schema: schemaCache, defaultZones: defaultZones, configuration: configuration
        )
        self.changes = ChangeService(store: store, assets: assets, access: access, configuration: configuration)
        let credentials = CredentialCache(relay: relay)
        let identity = IdentityService(store: store, configuration: configuration, cache: credentials)
        self.identity = identity
        self.serverKeys = ServerKeys(store: store, configuration: configuration, seen: SeenSignatures())
        self.signIn = SignInService(store: store, identity: identity, configuration: configuration)
        self.admin = AdminService(store: store, identity: identity, push: push)
        self.fixtures = DataFixtures(store: store, identity: identity, records: self.records, push: push, now: configuration.now)
        self.users = UserService(store: store, identity: identity, configuration: configuration)
        self.shares = ShareService(store: store, configuration: configuration, push: push, assets: assets)
        self.subscriptions = SubscriptionService(
            store: store, access: access, schema: schemaCache, configuration: configuration, cache: push.subscriptions
        )
        let pushTokens = PushTokenService(
            store: store, hub: hub, recent: push.recent, pacing: TokenPacing(), configuration: configuration, relay: relay
        )
        self.pushTokens = pushTokens
        let faults = FaultInjector(buggify: configuration.buggify, activity: activity, now: configuration.now)
        self.faults = faults
        self.configuration = configuration
        let faultSync = relay.isShared ? (store as? any SharedSettings).map { FaultRuleSync(faults: faults, settings: $0, relay: relay) } : nil
        relay.listen { topic, body in
            switch topic {
            case .feeds: relayedHub?.receive(body)
            case .subscriptions: push.subscriptions.invalidateAll()
            case .schema: schemaCache.forgetLocally(container: body)
            case .credentials: credentials.clear()
            case .tokens: if body == "*" { pushTokens.known.forgetAll() } else { pushTokens.known.forget(String(body)) }
            case .faults: faultSync?.reloadSoon()
            }
        }
        let sharing: [any Service] = relay.isShared ? [relay] + (faultSync.map { [$0] } ?? []) : []
        // The in-process hub sweeps its waiters' timeouts (a relayed hub wraps it).
        let sweeping: [any Service] = (localHub as? LocalNotificationHub).map { [$0] } ?? []
        self.background = sharing + [ActivityJournal(log: activity, store: store, logger: logger)] + sweeping + [
            push.delivery, AssetCollector(assets: assets, logger: logger),
        ]
    }
}
