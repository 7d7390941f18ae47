import Synchronization
import StratusModel
import StratusStore

/// Containers, accounts and credentials: resolves a request's tokens to a ``Caller`` and mints
/// new credentials. Secrets are hashed (SHA-256) before they reach the store; resolved hashes are
/// cached in memory, so a request costs no credential query after the first.
public struct IdentityService: Sendable {
    let store: any IdentityStore
    let configuration: CoreConfiguration
    let cache: CredentialCache

    // MARK: - Authentication

    /// Resolves the CKWS credentials of a request to `database`; `origin` is a browser's `Origin`.
    /// - Throws: `AUTHENTICATION_FAILED` (401) for a missing or unknown API token, one of another
    ///   container or environment, or a browser origin the token does not allow;
    ///   `AUTHENTICATION_REQUIRED` (421, with `redirectURL`) for a private or shared database
    ///   without a web auth token, and for any web auth token the server does not take (unknown,
    ///   of another container, revoked or expired); `BAD_REQUEST` with `nativeErrorCode` 5
    ///   (`CKError.badContainer`) for a container the server does not have.
    public func authenticate(
        apiToken: String?, webAuthToken: String?, origin: String? = nil, for database: DatabaseRef
    ) async throws(CoreError) -> Caller {
        guard let apiToken, !apiToken.isEmpty else {
            throw CoreError(.authenticationFailed, "missing ckAPIToken")
        }
        let granted = try await resolveAPIToken(apiToken)
        guard let granted, granted.container == database.container, granted.environment == database.environment else {
            // Only on the way out: say which of container and token is wrong.
            let known: Bool
            do { known = try await store.containerExists(database.container) } catch { throw CoreError(error) }
            guard known else { throw CoreError.unknownContainer(database.container) }
            throw CoreError(.authenticationFailed, "invalid ckAPIToken for \(database.container) (\(database.environment.rawValue))")
        }
        if let origin, !granted.settings.allowedOrigins.isEmpty,
            !SignInTargets(settings: granted.settings, allowsLoopback: false).allowsOrigin(origin)
        {
            throw CoreError(.authenticationFailed, "this ckAPIToken does not allow requests from \(origin)")
        }
        guard let webAuthToken, !webAuthToken.isEmpty else {
            // Private and shared databases always need a user: answer before reading the body.
            guard database.scope == .public else {
                throw configuration.authenticationRequired(database.container, apiToken: apiToken)
            }
            return .anonymous
        }
        // A token the server never issued (or one of another container) asks for sign-in, as a
        // revoked or expired one does: CloudKit JS then resolves "not signed in" and offers it.
        guard let session = try await resolveWebAuthToken(webAuthToken), session.container == database.container else {
            throw configuration.authenticationRequired(database.container, apiToken: apiToken, "unknown ckWebAuthToken: sign in")
        }
        if session.revoked {
            throw configuration.authenticationRequired(database.container, apiToken: apiToken, "web auth token revoked: sign in again")
        }
        if let expiresAt = session.expiresAt, expiresAt < configuration.now() {
            throw configuration.authenticationRequired(database.container, apiToken: apiToken, "web auth token expired: sign in again")
        }
        return .user(userRecordName: session.userRecordName)
    }

    /// Whether `token` is an admin token.
    public func isAdmin(token: String) async throws(CoreError) -> Bool {
        do {
            return try await store.adminTokenExists(hash: Secrets.hash(token))
        } catch {
            throw CoreError(error)
        }
    }

    func resolveAPIToken(_ token: String) async throws(CoreError) -> StoredAPIToken? {
        let hash = Secrets.hash(token)
        if let cached = cache.apiTokens.withLock({ $0[hash] }) { return cached }
        do {
            let stored = try await store.apiToken(hash: hash)
            if let stored { cache.apiTokens.withLock { $0[hash] = stored } }
            return stored
        } catch {
            throw CoreError(error)
        }
    }

    private func resolveWebAuthToken(_ token: String) async throws(CoreError) -> StoredWebAuthToken? {
        let hash = Secrets.hash(token)
        if let cached = cache.webAuthTokens.withLock({ $0[hash] }) { return cached }
        do {
            let stored = try await store.webAuthToken(hash: hash)
            if let stored { cache.webAuthTokens.withLock { $0[hash] = stored } }
            return stored
        } catch {
            throw CoreError(error)
        }
    }

    // MARK: - Provisioning

    /// Whether ``createContainer(_:)`` (and so the admin API) takes `identifier`: 1–255 ASCII
    /// letters, digits, `.`, `-` and `_`, as in `iCloud.com.example.App`.
    public static func isValidContainerIdentifier(_ identifier: String) -> Bool {
        NameRules.isValidContainerIdentifier(identifier)
    }

    /// Creates a container (idempotent).
    public func createContainer(_ identifier: String) async throws(CoreError) {
        guard NameRules.isValidContainerIdentifier(identifier) else {
            throw CoreError.badRequest("invalid container identifier '\(identifier)'")
        }
        do { try await store.createContainer(identifier) } catch { throw CoreError(error) }
    }

    /// Mints an API token for a container environment; the token is returned once, stored hashed.
    /// - Throws: `NOT_FOUND` for an unknown container; `BAD_REQUEST` for settings that are not
    ///   http(s) origins and URLs (checked before anything is stored).
    public func createAPIToken(
        container: String, environment: ContainerEnvironment, settings: APITokenSettings = APITokenSettings()
    ) async throws(CoreError) -> String {
        let settings = try SignInTargets.validated(settings)
        let token = Secrets.hexToken()
        let exists: Bool
        do { exists = try await store.containerExists(container) } catch { throw CoreError(error) }
        guard exists else { throw CoreError(.notFound, "no container '\(container)'") }
        do {
            let hash = Secrets.hash(token)
            try await store.addAPIToken(hash: hash, container: container, environment: environment)
            if settings != APITokenSettings() { _ = try await store.setAPITokenSettings(settings, hash: hash) }
        } catch {
            throw CoreError(error)
        }
        return token
    }

    /// Changes where an API token's web auth tokens may go (``UpdateAPITokenRequest``); every
    /// instance forgets its cached copy.
    /// - Throws: `NOT_FOUND` for a token this server never issued; `BAD_REQUEST` for bad settings.
    public func updateAPIToken(_ request: UpdateAPITokenRequest) async throws(CoreError) -> APITokenInfo {
        let hash = Secrets.hash(request.apiToken)
        let current: StoredAPIToken?
        do { current = try await store.apiToken(hash: hash) } catch { throw CoreError(error) }
        guard let current else { throw CoreError(.notFound, "no such API token") }
        let settings = try SignInTargets.validated(
            APITokenSettings(
                allowedOrigins: request.allowedOrigins ?? current.settings.allowedOrigins,
                signInCallbackURL: request.signInCallbackURL ?? current.settings.signInCallbackURL
            )
        )
        let updated: StoredAPIToken?
        do { updated = try await store.setAPITokenSettings(settings, hash: hash) } catch { throw CoreError(error) }
        guard let updated else { throw CoreError(.notFound, "no such API token") }
        cache.apiTokens.withLock { $0[hash] = updated }
        cache.relay.announce(.credentials)
        return APITokenInfo(container: updated.container, environment: updated.environment, settings: updated.settings)
    }

    /// Creates an account with a new user record name; others discover it only once it opts in.
    /// - Throws: `EXISTS` when the email is taken; `BAD_REQUEST` for an invalid email.
    public func createAccount(
        email: String, givenName: String?, familyName: String?, discoverable: Bool = false
    ) async throws(CoreError) -> AccountInfo {
        guard NameRules.isValidEmail(email) else {
            throw CoreError.badRequest("invalid email '\(email)'")
        }
        let account = StoredAccount(
            userRecordName: Secrets.userRecordName(), email: email, givenName: givenName, familyName: familyName, discoverable: discoverable
        )
        do {
            try await store.createAccount(account)
        } catch where error.kind == .duplicate {
            throw CoreError(.exists, "an account with email \(email) exists")
        } catch {
            throw CoreError(error)
        }
        return account
    }

    /// Every account, by email, at most `limit` (the admin API and the console list them).
    public func accounts(limit: Int) async throws(CoreError) -> [AccountInfo] {
        do { return try await store.allAccounts(limit: limit) } catch { throw CoreError(error) }
    }

    /// Whether the server has this container.
    public func containerExists(_ identifier: String) async throws(CoreError) -> Bool {
        do { return try await store.containerExists(identifier) } catch { throw CoreError(error) }
    }

    /// Container identifiers, in order, at most `limit`.
    public func containers(limit: Int) async throws(CoreError) -> [String] {
        do { return try await store.containers(limit: limit) } catch { throw CoreError(error) }
    }

    /// The account with this user record name or email.
    public func account(userRecordName: String? = nil, email: String? = nil) async throws(CoreError) -> AccountInfo? {
        do {
            if let userRecordName { return try await store.account(userRecordName: userRecordName) }
            if let email { return try await store.account(email: email) }
            return nil
        } catch {
            throw CoreError(error)
        }
    }

    /// Changes an account's names or discoverability; `nil` leaves a value as it is.
    /// - Throws: `NOT_FOUND` for an unknown account.
    public func updateAccount(_ request: UpdateAccountRequest) async throws(CoreError) -> AccountInfo {
        do {
            guard var account = try await store.account(userRecordName: request.userRecordName) else {
                throw CoreError(.notFound, "no such account")
            }
            account.givenName = request.givenName ?? account.givenName
            account.familyName = request.familyName ?? account.familyName
            account.discoverable = request.discoverable ?? account.discoverable
            try await store.updateAccount(account)
            return account
        } catch let error as CoreError {
            throw error
        } catch let error as StoreError {
            throw CoreError(error)
        } catch {
            throw CoreError.internal(cause: error)
        }
    }

    /// Signs `userRecordName` in to `container`: a new web auth token, returned once.
    public func createWebAuthToken(userRecordName: String, container: String, expiresAt: Int64? = nil) async throws(CoreError) -> String {
        let token = Secrets.webAuthToken()
        let session = StoredWebAuthToken(userRecordName: userRecordName, container: container, expiresAt: expiresAt)
        do {
            try await store.addWebAuthToken(hash: Secrets.hash(token), token: session)
        } catch {
            throw CoreError(error)
        }
        return token
    }

    /// Stores `token` as an admin token (hashed).
    /// Revokes a web auth token: the next request with it answers `AUTHENTICATION_REQUIRED` (421).
    /// - Throws: `NOT_FOUND` for a token this server never issued.
    public func revoke(webAuthToken token: String) async throws(CoreError) -> RevokeWebAuthTokenResponse {
        let hash = Secrets.hash(token)
        let revoked: StoredWebAuthToken?
        do { revoked = try await store.revokeWebAuthToken(hash: hash) } catch { throw CoreError(error) }
        guard let revoked else { throw CoreError(.notFound, "no such web auth token") }
        cache.webAuthTokens.withLock { $0[hash] = revoked }
        cache.relay.announce(.credentials)
        return RevokeWebAuthTokenResponse(revoked: true, userRecordName: revoked.userRecordName)
    }

    public func addAdminToken(_ token: String) async throws(CoreError) {
        do { try await store.addAdminToken(hash: Secrets.hash(token)) } catch { throw CoreError(error) }
    }

    /// A fresh admin token (not yet stored).
    public func newAdminToken() -> String { Secrets.hexToken() }
}

/// Resolved credential hashes, so repeated requests skip the credential queries. A revocation
/// empties it on every instance sharing the store (``InstanceRelay``).
final class CredentialCache: Sendable {
    let apiTokens = Mutex<[String: StoredAPIToken]>([:])
    let webAuthTokens = Mutex<[String: StoredWebAuthToken]>([:])
    let relay: InstanceRelay

    init(relay: InstanceRelay = InstanceRelay(signals: nil)) {
        self.relay = relay
    }

    /// Forgets every credential (another instance revoked one).
    func clear() {
        apiTokens.withLock { $0 = [:] }
        webAuthTokens.withLock { $0 = [:] }
    }
}
