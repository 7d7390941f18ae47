/// One line of a container's activity, as `GET /stratus/v1/admin/activity` lists it and the
/// console's timeline shows it: a committed change (with the notifications it produced) or a
/// fault that fired.
public struct ActivityEntry: Sendable, Hashable, Codable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A change committed to one zone.
        case commit
        /// A fault rule (or buggify) fired for a request.
        case fault
    }

    /// Increases with every entry: `after` in the next request returns only newer ones.
    public var sequence: Int64
    /// Milliseconds since 1970.
    public var time: Int64
    public var kind: Kind
    public var container: String
    public var environment: ContainerEnvironment
    public var database: DatabaseScope
    /// The account whose request it was (`nil`: a request without a signed-in user).
    public var userRecordName: String?
    /// The device the request named (`X-Stratus-Device-ID`).
    public var deviceID: String?
    /// The zone changed (commits) or named in the request (faults).
    public var zoneID: ZoneID?
    /// Records the commit touched, at most ``ActivityEntry/recordNameLimit``; ``recordCount`` counts them all.
    public var recordNames: [String]
    public var recordCount: Int
    /// Notifications the commit produced, and the accounts they went to (at most ``recordNameLimit``).
    public var notifications: Int
    public var notifiedUserRecordNames: [String]
    /// For a fault: the endpoint, the rule (`buggify` for the global switch) and what it did.
    public var endpoint: String?
    public var faultID: String?
    public var effect: String?

    /// Record names kept per entry.
    public static let recordNameLimit = 20

    public init(
        sequence: Int64 = 0, time: Int64, kind: Kind, container: String, environment: ContainerEnvironment, database: DatabaseScope,
        userRecordName: String?, deviceID: String? = nil, zoneID: ZoneID? = nil, recordNames: [String] = [], notifications: Int = 0,
        notifiedUserRecordNames: [String] = [], endpoint: String? = nil, faultID: String? = nil, effect: String? = nil
    ) {
        self.sequence = sequence
        self.time = time
        self.kind = kind
        self.container = container
        self.environment = environment
        self.database = database
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.zoneID = zoneID
        self.recordNames = Array(recordNames.prefix(Self.recordNameLimit))
        self.recordCount = recordNames.count
        self.notifications = notifications
        self.notifiedUserRecordNames = Array(notifiedUserRecordNames.prefix(Self.recordNameLimit))
        self.endpoint = endpoint
        self.faultID = faultID
        self.effect = effect
    }
}

/// The answer to `GET /stratus/v1/admin/activity`: entries newest first, and the newest sequence
/// the server holds (pass it back as `after` to get only what follows).
public struct ActivityResponse: Sendable, Hashable, Codable {
    public var entries: [ActivityEntry]
    public var latest: Int64

    public init(entries: [ActivityEntry], latest: Int64) {
        self.entries = entries
        self.latest = latest
    }
}
