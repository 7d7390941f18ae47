import StratusModel
import Synchronization

/// One request as the request log wrote it: what the console's Requests view lists.
public struct RequestRecord: Sendable, Hashable {
    public var sequence: Int64 = 0
    /// Milliseconds since 1970.
    public var time: Int64
    public var method: String
    /// The path, never the query (credentials travel there).
    public var path: String
    public var status: Int
    public var container: String?
    public var environment: ContainerEnvironment?
    public var database: DatabaseScope?
    public var zones: [String]
    public var userRecordName: String?
    public var deviceID: String?
    /// The CKWS code of a failed request.
    public var errorCode: String?
    /// Per-item errors inside a 200, by code.
    public var itemErrors: [String: Int]
    public var durationMilliseconds: Double

    public init(
        time: Int64, method: String, path: String, status: Int, container: String?, environment: ContainerEnvironment?,
        database: DatabaseScope?, zones: [String], userRecordName: String?, deviceID: String?, errorCode: String?,
        itemErrors: [String: Int], durationMilliseconds: Double
    ) {
        self.time = time
        self.method = method
        self.path = path
        self.status = status
        self.container = container
        self.environment = environment
        self.database = database
        self.zones = zones
        self.userRecordName = userRecordName
        self.deviceID = deviceID
        self.errorCode = errorCode
        self.itemErrors = itemErrors
        self.durationMilliseconds = durationMilliseconds
    }

    /// Whether the request failed, or succeeded with items refused inside it.
    public var hasErrors: Bool { status >= 400 || !itemErrors.isEmpty }
}

/// The newest requests the server answered, in memory (one process's): the console's Requests
/// view reads them. Recording costs one short lock per request.
public final class RecentRequests: Sendable {
    /// What a reader asks for: requests after `after`, of one container environment, optionally
    /// one account, zone, or only those with errors.
    public struct Filter: Sendable, Hashable {
        public var container: String
        public var environment: ContainerEnvironment
        public var userRecordName: String?
        public var zoneName: String?
        public var errorsOnly: Bool
        public var after: Int64
        public var limit: Int

        public init(
            container: String, environment: ContainerEnvironment, userRecordName: String? = nil, zoneName: String? = nil,
            errorsOnly: Bool = false, after: Int64 = 0, limit: Int = 200
        ) {
            self.container = container
            self.environment = environment
            self.userRecordName = userRecordName
            self.zoneName = zoneName
            self.errorsOnly = errorsOnly
            self.after = after
            self.limit = limit
        }

        func admits(_ record: RequestRecord) -> Bool {
            guard record.container == container, record.environment == environment else { return false }
            if let userRecordName, record.userRecordName != userRecordName { return false }
            if let zoneName, !record.zones.contains(zoneName) { return false }
            return !errorsOnly || record.hasErrors
        }
    }

    private let state: Mutex<RingBuffer<RequestRecord>>

    public init(capacity: Int = 1_000) {
        self.state = Mutex(RingBuffer(capacity: capacity))
    }

    public func record(_ request: RequestRecord) {
        state.withLock { ring in
            _ = ring.append { sequence in
                var request = request
                request.sequence = sequence
                return request
            }
        }
    }

    /// The requests the filter admits, newest first, and the newest sequence recorded.
    public func entries(_ filter: Filter) -> (records: [RequestRecord], latest: Int64) {
        state.withLock { ring in
            let found = ring.newestFirst(limit: filter.limit) { record in record.sequence <= filter.after ? nil : filter.admits(record) }
            return (found, ring.latest)
        }
    }
}
