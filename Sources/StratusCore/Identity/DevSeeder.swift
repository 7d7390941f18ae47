import Foundation
import StratusModel
import StratusStore

/// Seeds what `stratus serve --dev` promises: container `iCloud.com.example.TravelJournal`
/// (development and production), an API token, an admin token and the accounts alice, bob and
/// carol; and each further container asked for (`--container`) with an API token and web auth
/// tokens of its own, since a token is bound to one container.
///
/// Given the credentials of an earlier run, it keeps each one the store still takes, so a restart
/// on the same data directory answers to the same tokens; only one that no longer resolves (a
/// revoked web auth token, say) is minted again.
public struct DevSeeder: Sendable {
    public static let container = "iCloud.com.example.TravelJournal"
    public static let accountNames = ["alice", "bob", "carol"]

    let identity: IdentityService

    public init(identity: IdentityService) {
        self.identity = identity
    }

    /// The credentials to use: `previous` where the store still takes them, newly minted ones
    /// where it does not; their `containers` list the default container, then every one of
    /// `containers` (repeats and the default container itself ignored), each with its own
    /// development API token and a web auth token per account.
    /// - Throws: `BAD_REQUEST` for a container identifier the admin API would refuse.
    public func seed(previous: DevCredentials?, serverURL: String, containers: [String] = []) async throws(CoreError) -> DevCredentials {
        try await seedReporting(previous: previous, serverURL: serverURL, containers: containers).credentials
    }

    /// ``seed(previous:serverURL:containers:)``, also naming each credential it had to mint again
    /// (`"bob's web auth token"`): a restart keeps every credential the store still takes, so
    /// revoking one token re-mints that token alone.
    public func seedReporting(
        previous: DevCredentials?, serverURL: String, containers: [String] = []
    ) async throws(CoreError) -> (credentials: DevCredentials, reminted: [String]) {
        var credentials: DevCredentials
        var reminted: [String] = []
        if let previous, let kept = try await kept(previous, serverURL: serverURL, reminted: &reminted) {
            credentials = kept
        } else {
            credentials = try await mint(serverURL: serverURL)
        }
        var seen: Set<String> = [credentials.container]
        var seeded = [Self.entry(of: credentials)]
        for identifier in containers {
            guard seen.insert(identifier).inserted else { continue }
            let earlier = previous?.containers?.first { $0.identifier == identifier }
            seeded.append(try await seed(container: identifier, earlier: earlier, accounts: credentials.accounts, reminted: &reminted))
        }
        credentials.containers = seeded
        return (credentials, reminted)
    }

    /// `previous` with whatever the store no longer takes minted again (an admin token, the API
    /// token, an account's web auth token); `nil` when it names another container or an account
    /// the store does not have (a new store: everything is minted afresh).
    private func kept(_ previous: DevCredentials, serverURL: String, reminted: inout [String]) async throws(CoreError) -> DevCredentials? {
        guard previous.container == DevSeeder.container, let environment = ContainerEnvironment(rawValue: previous.environment) else { return nil }
        for account in previous.accounts {
            guard try await identity.account(email: account.email)?.userRecordName == account.userRecordName else { return nil }
        }
        var credentials = previous
        credentials.serverURL = serverURL
        if try await !identity.isAdmin(token: previous.adminToken) {
            credentials.adminToken = identity.newAdminToken()
            try await identity.addAdminToken(credentials.adminToken)
            reminted.append("the admin token")
        }
        if try await !resolves(apiToken: previous.apiToken, container: previous.container, environment: environment) {
            credentials.apiToken = try await identity.createAPIToken(container: previous.container, environment: environment)
            reminted.append("the API token")
        }
        for index in credentials.accounts.indices {
            let account = credentials.accounts[index]
            let valid = try await resolves(
                apiToken: credentials.apiToken, webAuthToken: account.webAuthToken, as: account.userRecordName,
                container: credentials.container, environment: environment
            )
            if valid { continue }
            credentials.accounts[index].webAuthToken = try await identity.createWebAuthToken(
                userRecordName: account.userRecordName, container: credentials.container
            )
            reminted.append("\(account.name)'s web auth token")
        }
        return credentials
    }

    /// The default container, an API token, an admin token and the accounts, all new (the
    /// accounts reused when their emails are taken).
    private func mint(serverURL: String) async throws(CoreError) -> DevCredentials {
        try await identity.createContainer(DevSeeder.container)
        let apiToken = try await identity.createAPIToken(container: DevSeeder.container, environment: .development)
        let adminToken = identity.newAdminToken()
        try await identity.addAdminToken(adminToken)
        var accounts: [DevCredentials.Account] = []
        for name in DevSeeder.accountNames {
            let email = "\(name)@example.com"
            let account: AccountInfo
            if let existing = try await identity.account(email: email) {
                account = existing
            } else {
                account = try await identity.createAccount(
                    email: email, givenName: name.capitalized, familyName: "Example", discoverable: true
                )
            }
            let token = try await identity.createWebAuthToken(userRecordName: account.userRecordName, container: DevSeeder.container)
            accounts.append(.init(name: name, email: email, userRecordName: account.userRecordName, webAuthToken: token))
        }
        return DevCredentials(
            serverURL: serverURL, container: DevSeeder.container, environment: ContainerEnvironment.development.rawValue,
            apiToken: apiToken, adminToken: adminToken, accounts: accounts
        )
    }

    /// The top-level container's entry in `containers`: the top-level tokens.
    private static func entry(of credentials: DevCredentials) -> DevCredentials.Container {
        DevCredentials.Container(
            identifier: credentials.container, environment: credentials.environment, apiToken: credentials.apiToken,
            webAuthTokens: Dictionary(credentials.accounts.map { ($0.name, $0.webAuthToken) }, uniquingKeysWith: { first, _ in first })
        )
    }

    /// A further container (created if new) with a development API token and a web auth token per
    /// account: `earlier`'s where they still resolve, new ones where they do not.
    private func seed(
        container identifier: String, earlier: DevCredentials.Container?, accounts: [DevCredentials.Account], reminted: inout [String]
    ) async throws(CoreError) -> DevCredentials.Container {
        let environment = ContainerEnvironment.development
        try await identity.createContainer(identifier)
        let usable = earlier?.environment == environment.rawValue ? earlier : nil
        let apiToken: String
        if let kept = usable?.apiToken, try await resolves(apiToken: kept, container: identifier, environment: environment) {
            apiToken = kept
        } else {
            apiToken = try await identity.createAPIToken(container: identifier, environment: environment)
            if usable != nil { reminted.append("\(identifier)'s API token") }
        }
        var webAuthTokens: [String: String] = [:]
        for account in accounts {
            if let kept = usable?.webAuthTokens[account.name],
                try await resolves(
                    apiToken: apiToken, webAuthToken: kept, as: account.userRecordName, container: identifier, environment: environment
                )
            {
                webAuthTokens[account.name] = kept
            } else {
                webAuthTokens[account.name] = try await identity.createWebAuthToken(
                    userRecordName: account.userRecordName, container: identifier
                )
                if usable != nil { reminted.append("\(account.name)'s web auth token for \(identifier)") }
            }
        }
        return DevCredentials.Container(
            identifier: identifier, environment: environment.rawValue, apiToken: apiToken, webAuthTokens: webAuthTokens
        )
    }

    /// Whether the store still takes `apiToken` for `container` (its public database, anonymously)
    /// or, with `webAuthToken`, signs `userRecordName` in to its private database.
    private func resolves(
        apiToken: String, webAuthToken: String? = nil, as userRecordName: String? = nil, container: String,
        environment: ContainerEnvironment
    ) async throws(CoreError) -> Bool {
        let database = DatabaseRef(container: container, environment: environment, scope: webAuthToken == nil ? .public : .private)
        do throws(CoreError) {
            let caller = try await identity.authenticate(apiToken: apiToken, webAuthToken: webAuthToken, for: database)
            return caller.userRecordName == userRecordName
        } catch {
            guard error.code == .authenticationFailed || error.code == .authenticationRequired else { throw error }
            return false
        }
    }
}
