import Foundation
import StratusModel
import StratusStore

/// Seeds what `stratus serve --dev` promises: container `iCloud.com.example.TravelJournal`
/// (development and production), an API token, an admin token and the accounts alice, bob and
/// carol; and each further container asked for (`--container`) with an API token and web auth
/// tokens of its own, since a token is bound to one container.
///
/// Given the credentials of an earlier run, it keeps them when the store still knows them all,
/// so a restart on the same data directory answers to the same tokens; a further container's
/// tokens are kept one by one, only those that no longer resolve minted again.
public struct DevSeeder: Sendable {
    public static let container = "iCloud.com.example.TravelJournal"
    public static let accountNames = ["alice", "bob", "carol"]

    let identity: IdentityService

    public init(identity: IdentityService) {
        self.identity = identity
    }

    /// The credentials to use: `previous` if still valid, otherwise newly minted ones; their
    /// `containers` list the default container, then every one of `containers` (repeats and the
    /// default container itself ignored), each with its own development API token and a web auth
    /// token per account.
    /// - Throws: `BAD_REQUEST` for a container identifier the admin API would refuse.
    public func seed(previous: DevCredentials?, serverURL: String, containers: [String] = []) async throws(CoreError) -> DevCredentials {
        var credentials: DevCredentials
        if var previous, try await stillValid(previous) {
            previous.serverURL = serverURL
            credentials = previous
        } else {
            credentials = try await mint(serverURL: serverURL)
        }
        var seen: Set<String> = [credentials.container]
        var seeded = [Self.entry(of: credentials)]
        for identifier in containers {
            guard seen.insert(identifier).inserted else { continue }
            let earlier = previous?.containers?.first { $0.identifier == identifier }
            seeded.append(try await seed(container: identifier, earlier: earlier, accounts: credentials.accounts))
        }
        credentials.containers = seeded
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
        container identifier: String, earlier: DevCredentials.Container?, accounts: [DevCredentials.Account]
    ) async throws(CoreError) -> DevCredentials.Container {
        let environment = ContainerEnvironment.development
        try await identity.createContainer(identifier)
        let usable = earlier?.environment == environment.rawValue ? earlier : nil
        let apiToken: String
        if let kept = usable?.apiToken, try await resolves(apiToken: kept, container: identifier, environment: environment) {
            apiToken = kept
        } else {
            apiToken = try await identity.createAPIToken(container: identifier, environment: environment)
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
            }
        }
        return DevCredentials.Container(
            identifier: identifier, environment: environment.rawValue, apiToken: apiToken, webAuthTokens: webAuthTokens
        )
    }

    private func stillValid(_ credentials: DevCredentials) async throws(CoreError) -> Bool {
        guard let environment = ContainerEnvironment(rawValue: credentials.environment),
            try await identity.isAdmin(token: credentials.adminToken)
        else { return false }
        for account in credentials.accounts {
            let valid = try await resolves(
                apiToken: credentials.apiToken, webAuthToken: account.webAuthToken, as: account.userRecordName,
                container: credentials.container, environment: environment
            )
            guard valid else { return false }
        }
        return true
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
