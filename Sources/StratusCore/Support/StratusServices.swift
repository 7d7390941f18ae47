import StratusStore

/// Every Core service over one store, built once at start-up and shared by all requests.
public struct StratusServices: Sendable {
    public let records: RecordService
    public let zones: ZoneService
    public let changes: ChangeService
    public let identity: IdentityService
    public let admin: AdminService
    public let users: UserService
    public let queries: QueryService
    public let schema: SchemaService
    public let shares: ShareService
    public let configuration: CoreConfiguration

    public init(store: any RecordStore & IdentityStore & SchemaStore & ShareStore, configuration: CoreConfiguration = CoreConfiguration()) {
        let access = DatabaseAccess(configuration: configuration)
        let defaultZones = DefaultZones(store: store)
        let schemaCache = SchemaCache(store: store)
        self.records = RecordService(
            store: store, access: access, schema: schemaCache, defaultZones: defaultZones, configuration: configuration
        )
        self.schema = SchemaService(store: store, cache: schemaCache)
        self.zones = ZoneService(store: store, access: access, defaultZones: defaultZones, configuration: configuration)
        self.queries = QueryService(store: store, access: access, schema: schemaCache, defaultZones: defaultZones, configuration: configuration)
        self.changes = ChangeService(store: store, access: access, configuration: configuration)
        let identity = IdentityService(store: store, configuration: configuration, cache: CredentialCache())
        self.identity = identity
        self.admin = AdminService(store: store)
        self.users = UserService(store: store, identity: identity, configuration: configuration)
        self.shares = ShareService(store: store, configuration: configuration)
        self.configuration = configuration
    }
}
