import StratusModel

/// Who is calling, as the server established it from the request's credentials.
public enum Caller: Sendable, Hashable {
    /// A signed-in user (API token plus web auth token).
    case user(userRecordName: String)
    /// Only a valid API token: may read what World may read.
    case anonymous
    /// A request signed with a server-to-server key: the container's developer, in the public
    /// database only. It reads and writes as ``ServerKeys/developer``, the identity users/caller
    /// and users/current answer for it; it may look others up, but not discover them.
    case developer

    /// The user record name the caller reads and writes as (``ServerKeys/developer`` for a
    /// server-to-server key), or `nil` for an anonymous caller.
    public var userRecordName: String? {
        switch self {
        case .user(let name): name
        case .developer: ServerKeys.developer
        case .anonymous: nil
        }
    }

    /// Whether the caller is a server-to-server key rather than a signed-in user.
    public var isDeveloper: Bool { self == .developer }
}

/// The database a request addresses: `{container}/{environment}/{scope}` from the path.
public struct DatabaseRef: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    public var scope: DatabaseScope

    public init(container: String, environment: ContainerEnvironment, scope: DatabaseScope) {
        self.container = container
        self.environment = environment
        self.scope = scope
    }
}

/// An authenticated request's target: the database and the caller, resolved by the server
/// before any Core service runs.
public struct RequestScope: Sendable, Hashable {
    public var database: DatabaseRef
    public var caller: Caller
    /// The device a client names (`X-Stratus-Device-ID`), stamped on the records it writes.
    public var deviceID: String?
    /// Records of a records/modify this injected fault fails (set by the server's fault check).
    public var itemFault: ItemFault?
    /// `scheme://host[:port]` the client reached: upload and download URLs point there.
    public var origin: String
    /// The API token the request came with (the sign-in page a 421 names applies its settings).
    public var apiToken: String?
    /// What the client asked for beyond CKWS (`X-Stratus-Extensions`).
    public var extensions: WireExtensions = []

    public init(
        database: DatabaseRef, caller: Caller, deviceID: String? = nil, itemFault: ItemFault? = nil, origin: String = "http://127.0.0.1",
        apiToken: String? = nil
    ) {
        self.database = database
        self.caller = caller
        self.deviceID = deviceID
        self.itemFault = itemFault
        self.origin = origin
        self.apiToken = apiToken
    }
}
