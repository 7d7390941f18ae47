import StratusModel

/// Storage of who may call: containers, accounts and credentials, in three parts so a service
/// asks for the part it uses (sign-in needs accounts, not server keys). Secrets arrive hashed.
public typealias IdentityStore = ContainerStore & AccountStore & CredentialStore

/// The containers a server serves.
public protocol ContainerStore: Sendable {
    func createContainer(_ identifier: String) async throws(StoreError)
    func containerExists(_ identifier: String) async throws(StoreError) -> Bool
    /// Container identifiers, in order, at most `limit` (the console lists them).
    func containers(limit: Int) async throws(StoreError) -> [String]
}

/// Accounts (one per iCloud user), their discoverability and their sign-in password.
public protocol AccountStore: Sendable {
    /// - Throws: ``StoreError/Kind/duplicate`` when the email is taken.
    func createAccount(_ account: StoredAccount) async throws(StoreError)
    func account(userRecordName: String) async throws(StoreError) -> StoredAccount?
    func account(email: String) async throws(StoreError) -> StoredAccount?
    /// The accounts with any of these user record names or (case-insensitive) emails, in one read.
    func accounts(userRecordNames: [String], emails: [String]) async throws(StoreError) -> [StoredAccount]
    /// Replaces an account's names and discoverability. - Throws: nothing when the account is missing.
    func updateAccount(_ account: StoredAccount) async throws(StoreError)
    /// Discoverable accounts, ordered by email, at most `limit`.
    func discoverableAccounts(limit: Int) async throws(StoreError) -> [StoredAccount]
    /// Every account, ordered by email, at most `limit` (the development sign-in page lists them).
    func allAccounts(limit: Int) async throws(StoreError) -> [StoredAccount]
    /// Sets (or with `nil` clears) the sign-in password's hash of an account.
    func setPasswordHash(_ hash: String?, userRecordName: String) async throws(StoreError)
    /// The sign-in password's hash of an account, if it has one.
    func passwordHash(userRecordName: String) async throws(StoreError) -> String?
}

/// The credentials a request carries: API, web auth and admin tokens by their hash, and
/// server-to-server public keys by their key ID.
public protocol CredentialStore: Sendable {
    func addAPIToken(hash: String, container: String, environment: ContainerEnvironment) async throws(StoreError)
    func apiToken(hash: String) async throws(StoreError) -> StoredAPIToken?
    /// Replaces an API token's settings; answers the token as it now is, `nil` when there is none.
    func setAPITokenSettings(_ settings: APITokenSettings, hash: String) async throws(StoreError) -> StoredAPIToken?
    func addWebAuthToken(hash: String, token: StoredWebAuthToken) async throws(StoreError)
    /// The token's grant, revoked ones included (``StoredWebAuthToken/revoked``).
    func webAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken?
    /// Marks a token revoked; returns its grant, or `nil` for an unknown token.
    func revokeWebAuthToken(hash: String) async throws(StoreError) -> StoredWebAuthToken?
    /// Registers a server-to-server public key under its key ID.
    func addServerKey(_ key: StoredServerKey) async throws(StoreError)
    /// A live (not revoked) server-to-server key, or `nil`.
    func serverKey(id: String) async throws(StoreError) -> StoredServerKey?
    /// Revokes a key; `false` when there is no live key with that ID.
    func revokeServerKey(id: String) async throws(StoreError) -> Bool
    func addAdminToken(hash: String) async throws(StoreError)
    func adminTokenExists(hash: String) async throws(StoreError) -> Bool
}
