import Foundation
import StratusModel
import StratusStore

/// Seeds what `stratus serve --dev` promises: container `iCloud.com.example.TravelJournal`
/// (development), an API token, an admin token and the accounts alice, bob and carol.
///
/// Given the credentials of an earlier run, it keeps them when the store still knows them all,
/// so a restart on the same data directory answers to the same tokens.
public struct DevSeeder: Sendable {
    public static let container = "iCloud.com.example.TravelJournal"
    public static let accountNames = ["alice", "bob", "carol"]

    let identity: IdentityService

    public init(identity: IdentityService) {
        self.identity = identity
    }

    /// The credentials to use: `previous` if still valid, otherwise newly minted ones.
    public func seed(previous: DevCredentials?, serverURL: String) async throws(CoreError) -> DevCredentials {
        if var previous, try await stillValid(previous) {
            previous.serverURL = serverURL
            return previous
        }
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

    private func stillValid(_ credentials: DevCredentials) async throws(CoreError) -> Bool {
        guard let environment = ContainerEnvironment(rawValue: credentials.environment),
            try await identity.isAdmin(token: credentials.adminToken)
        else { return false }
        let database = DatabaseRef(container: credentials.container, environment: environment, scope: .private)
        for account in credentials.accounts {
            do throws(CoreError) {
                let caller = try await identity.authenticate(
                    apiToken: credentials.apiToken, webAuthToken: account.webAuthToken, for: database
                )
                guard caller.userRecordName == account.userRecordName else { return false }
            } catch {
                guard error.code == .authenticationFailed || error.code == .authenticationRequired else { throw error }
                return false
            }
        }
        return true
    }
}
