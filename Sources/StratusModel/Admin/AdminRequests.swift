/// `POST /stratus/v1/admin/containers`: create a container (idempotent).
public struct CreateContainerRequest: Sendable, Hashable, Codable {
    public var identifier: String
    public init(identifier: String) { self.identifier = identifier }
}

/// The answer to `GET /stratus/v1/admin/containers`: every container identifier, in order.
public struct ContainersResponse: Sendable, Hashable, Codable {
    public var containers: [String]
    public init(containers: [String]) { self.containers = containers }
}

/// The answer to `GET /stratus/v1/admin/accounts`: every account, by email.
public struct AccountsResponse: Sendable, Hashable, Codable {
    public var accounts: [AccountInfo]
    public init(accounts: [AccountInfo]) { self.accounts = accounts }
}

/// `POST /stratus/v1/admin/api-tokens`: mint an API token for a container environment, with the
/// origins and sign-in callback URL it allows (``APITokenSettings``; none by default).
public struct CreateAPITokenRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var allowedOrigins: [String]?
    public var signInCallbackURL: String?
    public init(container: String, environment: ContainerEnvironment, allowedOrigins: [String]? = nil, signInCallbackURL: String? = nil) {
        self.container = container
        self.environment = environment
        self.allowedOrigins = allowedOrigins
        self.signInCallbackURL = signInCallbackURL
    }
}

/// The answer to ``CreateAPITokenRequest``: the token, shown once (only its hash is stored).
public struct CreateAPITokenResponse: Sendable, Hashable, Codable {
    public var apiToken: String
    public init(apiToken: String) { self.apiToken = apiToken }
}

/// `POST /stratus/v1/admin/accounts`: create a simulated iCloud account.
public struct CreateAccountRequest: Sendable, Hashable, Codable {
    public var email: String
    public var givenName: String?
    public var familyName: String?
    /// Whether others may discover the account (users/discover, users/lookup/*); default `true`.
    public var discoverable: Bool?
    /// The password the sign-in page asks for (stored as a PBKDF2 hash; at least 8 characters).
    public var password: String?
    public init(email: String, givenName: String? = nil, familyName: String? = nil, discoverable: Bool? = nil, password: String? = nil) {
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.discoverable = discoverable
        self.password = password
    }
}

/// `POST /stratus/v1/admin/accounts/update`: change an account's names or discoverability.
public struct UpdateAccountRequest: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var givenName: String?
    public var familyName: String?
    public var discoverable: Bool?
    /// A new sign-in password (at least 8 characters); `nil` leaves it as it is.
    public var password: String?
    public init(
        userRecordName: String, givenName: String? = nil, familyName: String? = nil, discoverable: Bool? = nil, password: String? = nil
    ) {
        self.userRecordName = userRecordName
        self.givenName = givenName
        self.familyName = familyName
        self.discoverable = discoverable
        self.password = password
    }
}

/// An account as the admin API shows it.
public struct AccountInfo: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var email: String
    public var givenName: String?
    public var familyName: String?
    public var discoverable: Bool
    public init(userRecordName: String, email: String, givenName: String?, familyName: String?, discoverable: Bool = true) {
        self.userRecordName = userRecordName
        self.email = email
        self.givenName = givenName
        self.familyName = familyName
        self.discoverable = discoverable
    }
}

/// `POST /stratus/v1/admin/web-auth-tokens`: sign an account in to a container.
public struct CreateWebAuthTokenRequest: Sendable, Hashable, Codable {
    public var container: String
    /// The account, by user record name or by email.
    public var userRecordName: String?
    public var email: String?
    /// Seconds the token is valid; `nil`: until revoked.
    public var expiresInSeconds: Int?
    public init(container: String, userRecordName: String? = nil, email: String? = nil, expiresInSeconds: Int? = nil) {
        self.container = container
        self.userRecordName = userRecordName
        self.email = email
        self.expiresInSeconds = expiresInSeconds
    }
}

/// The answer to ``CreateWebAuthTokenRequest``: the token, shown once.
public struct CreateWebAuthTokenResponse: Sendable, Hashable, Codable {
    public var webAuthToken: String
    public var userRecordName: String
    public init(webAuthToken: String, userRecordName: String) {
        self.webAuthToken = webAuthToken
        self.userRecordName = userRecordName
    }
}

/// `POST /stratus/v1/admin/zones/compact`: drop a zone's tombstones and expire older zone tokens.
public struct CompactZoneRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    /// Defaults to `private`.
    public var database: DatabaseScope?
    public var ownerRecordName: String
    public var zoneName: String
    public init(container: String, environment: ContainerEnvironment, ownerRecordName: String, zoneName: String) {
        self.container = container
        self.environment = environment
        self.ownerRecordName = ownerRecordName
        self.zoneName = zoneName
    }
}

/// The answer to ``CompactZoneRequest``: the zone with its current sync token.
public struct CompactZoneResponse: Sendable, Hashable, Codable {
    public var zone: Zone
    public init(zone: Zone) { self.zone = zone }
}

/// `POST /stratus/v1/admin/databases/compact`: expire every change token of a database — its
/// database tokens and each zone's (tombstones dropped) — as if CloudKit dropped its history.
public struct CompactDatabaseRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    /// Defaults to `private`; `shared` expires the owner's shared-database token only.
    public var database: DatabaseScope?
    public var ownerRecordName: String
    public init(container: String, environment: ContainerEnvironment, database: DatabaseScope? = nil, ownerRecordName: String) {
        self.container = container
        self.environment = environment
        self.database = database
        self.ownerRecordName = ownerRecordName
    }
}

/// The answer to ``CompactDatabaseRequest``: the database token from which fetches work again.
public struct CompactDatabaseResponse: Sendable, Hashable, Codable {
    public var syncToken: String
    public init(syncToken: String) { self.syncToken = syncToken }
}

/// `POST /stratus/v1/admin/keys`: register a server-to-server public key (PEM, ECDSA P-256).
public struct RegisterServerKeyRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var publicKeyPEM: String
    public init(container: String, environment: ContainerEnvironment, publicKeyPEM: String) {
        self.container = container
        self.environment = environment
        self.publicKeyPEM = publicKeyPEM
    }
}

/// The answer to ``RegisterServerKeyRequest``: the key ID signed requests name.
public struct RegisterServerKeyResponse: Sendable, Hashable, Codable {
    public var keyID: String
    public init(keyID: String) { self.keyID = keyID }
}
