/// What `stratus serve --dev` writes to `<data>/dev-credentials.json`: everything a client,
/// a test or the benchmark needs to talk to the seeded container.
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

    public var serverURL: String
    public var container: String
    public var environment: String
    public var apiToken: String
    public var adminToken: String
    public var accounts: [Account]

    public init(serverURL: String, container: String, environment: String, apiToken: String, adminToken: String, accounts: [Account]) {
        self.serverURL = serverURL
        self.container = container
        self.environment = environment
        self.apiToken = apiToken
        self.adminToken = adminToken
        self.accounts = accounts
    }

    /// The account with this short name (`alice`), if seeded.
    public func account(_ name: String) -> Account? {
        accounts.first { $0.name == name }
    }
}
