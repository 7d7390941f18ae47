/// `POST /stratus/v1/admin/reset`: wipes a container environment's data — every account's
/// zones, records and subscriptions, and the public database — or one account's only. Containers,
/// API tokens and accounts stay.
public struct DataResetRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    /// Only this account's data (its private zones, its public records, its subscriptions).
    public var userRecordName: String?

    public init(container: String, environment: ContainerEnvironment, userRecordName: String? = nil) {
        self.container = container
        self.environment = environment
        self.userRecordName = userRecordName
    }
}

/// What a reset removed.
public struct DataResetResponse: Sendable, Hashable, Codable {
    public var zonesDeleted: Int
    public var recordsDeleted: Int
    public var subscriptionsDeleted: Int

    public init(zonesDeleted: Int, recordsDeleted: Int, subscriptionsDeleted: Int) {
        self.zonesDeleted = zonesDeleted
        self.recordsDeleted = recordsDeleted
        self.subscriptionsDeleted = subscriptionsDeleted
    }
}

/// A container environment's records as a test fixture (`GET /stratus/v1/admin/export`, `POST
/// /stratus/v1/admin/import`): each account's private zones and the public database, records in
/// CloudKit's wire shape. Shares and asset fields are not carried (their participants and bytes
/// belong to a running server); `skipped` counts what was left out.
public struct DataExport: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var databases: [Database]
    /// Share records, and asset fields of records, left out.
    public var skipped: Int

    public init(container: String, environment: ContainerEnvironment, databases: [Database], skipped: Int = 0) {
        self.container = container
        self.environment = environment
        self.databases = databases
        self.skipped = skipped
    }

    /// One database: `public`, or an account's `private` one.
    public struct Database: Sendable, Hashable, Codable {
        public var scope: DatabaseScope
        /// The account (private databases).
        public var ownerRecordName: String?
        public var zones: [Zone]

        public init(scope: DatabaseScope, ownerRecordName: String?, zones: [Zone]) {
            self.scope = scope
            self.ownerRecordName = ownerRecordName
            self.zones = zones
        }
    }

    /// A zone and its live records.
    public struct Zone: Sendable, Hashable, Codable {
        public var zoneName: String
        public var atomic: Bool
        public var records: [Record]

        public init(zoneName: String, atomic: Bool, records: [Record]) {
            self.zoneName = zoneName
            self.atomic = atomic
            self.records = records
        }
    }
}

/// What an import wrote, and each record it could not (by name, with CloudKit's error).
public struct DataImportResponse: Sendable, Hashable, Codable {
    public var zonesCreated: Int
    public var recordsSaved: Int
    public var errors: [RecordError]

    public init(zonesCreated: Int, recordsSaved: Int, errors: [RecordError]) {
        self.zonesCreated = zonesCreated
        self.recordsSaved = recordsSaved
        self.errors = errors
    }
}
