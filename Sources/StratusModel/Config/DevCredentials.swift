import Foundation

/// What `stratus serve --dev` writes to `<data>/dev-credentials.json`: everything a client,
/// a test or the benchmark needs to talk to the seeded containers.
///
/// The top-level `container`, `environment`, `apiToken` and each account's `webAuthToken` are the
/// default container's (`iCloud.com.example.TravelJournal`); `containers` lists every seeded
/// container (the default one first, then each `--container`), each with its own API token and
/// web auth tokens: a token is bound to one container.
public struct DevCredentials: Sendable, Hashable, Codable {
    /// One seeded account.
    public struct Account: Sendable, Hashable, Codable {
        public var name: String
        public var email: String
        public var userRecordName: String
        public var webAuthToken: String

        public init(name: String, email: String, userRecordName: String, webAuthToken: String) {
            self.name = name
            self.email = email
            self.userRecordName = userRecordName
            self.webAuthToken = webAuthToken
        }
    }

    /// One seeded container: its development API token and each account's web auth token for it,
    /// by account name (`alice`).
    public struct Container: Sendable, Hashable, Codable {
        public var identifier: String
        public var environment: String
        public var apiToken: String
        public var webAuthTokens: [String: String]

        public init(identifier: String, environment: String, apiToken: String, webAuthTokens: [String: String]) {
            self.identifier = identifier
            self.environment = environment
            self.apiToken = apiToken
            self.webAuthTokens = webAuthTokens
        }
    }

    public var serverURL: String
    public var container: String
    public var environment: String
    public var apiToken: String
    public var adminToken: String
    public var accounts: [Account]
    /// Every seeded container with its own credentials; absent in files of older servers.
    public var containers: [Container]?

    public init(
        serverURL: String, container: String, environment: String, apiToken: String, adminToken: String, accounts: [Account],
        containers: [Container]? = nil
    ) {
        self.serverURL = serverURL
        self.container = container
        self.environment = environment
        self.apiToken = apiToken
        self.adminToken = adminToken
        self.accounts = accounts
        self.containers = containers
    }

    /// The account with this short name (`alice`), if seeded.
    public func account(_ name: String) -> Account? {
        accounts.first { $0.name == name }
    }

    /// The credentials of the seeded container `identifier`: its entry in `containers`, else — for
    /// the top-level container of a file without `containers` — the top-level tokens.
    public func seededContainer(_ identifier: String) -> Container? {
        if let listed = containers?.first(where: { $0.identifier == identifier }) { return listed }
        guard identifier == container else { return nil }
        return Container(
            identifier: container, environment: environment, apiToken: apiToken,
            webAuthTokens: Dictionary(accounts.map { ($0.name, $0.webAuthToken) }, uniquingKeysWith: { first, _ in first })
        )
    }
}

extension DevCredentials {
    /// Writes the credentials as `stratus serve --dev` does: pretty JSON, readable by its owner only.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(self).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
