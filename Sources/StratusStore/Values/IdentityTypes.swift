import StratusModel

/// A simulated iCloud account.
public typealias StoredAccount = AccountInfo

/// What an API token grants: one container environment, and where its web auth tokens may go.
public struct StoredAPIToken: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    public var settings: APITokenSettings

    public init(container: String, environment: ContainerEnvironment, settings: APITokenSettings = APITokenSettings()) {
        self.container = container
        self.environment = environment
        self.settings = settings
    }
}

/// What a web auth token grants: one user in one container.
public struct StoredWebAuthToken: Sendable, Hashable {
    public var userRecordName: String
    public var container: String
    /// Milliseconds since 1970; `nil` = never expires.
    public var expiresAt: Int64?
    /// Revoked by an operator: requests with it answer as signed out.
    public var revoked: Bool

    public init(userRecordName: String, container: String, expiresAt: Int64?, revoked: Bool = false) {
        self.userRecordName = userRecordName
        self.container = container
        self.expiresAt = expiresAt
        self.revoked = revoked
    }
}

/// A server-to-server key: an ECDSA P-256 public key (PEM) registered for one container environment.
public struct StoredServerKey: Sendable, Hashable {
    public var keyID: String
    public var container: String
    public var environment: ContainerEnvironment
    public var publicKeyPEM: String

    public init(keyID: String, container: String, environment: ContainerEnvironment, publicKeyPEM: String) {
        self.keyID = keyID
        self.container = container
        self.environment = environment
        self.publicKeyPEM = publicKeyPEM
    }
}

extension APITokenSettings {
    /// Allowed origins as one column: space-separated (an origin holds no space).
    public static func joined(_ origins: [String]) -> String { origins.joined(separator: " ") }

    /// The origins of a column ``joined(_:)`` wrote.
    public static func split(_ column: String) -> [String] { column.split(separator: " ").map(String.init) }
}
