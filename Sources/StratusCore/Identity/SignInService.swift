import StratusModel
import StratusStore

/// The sign-in page's side of identity (what `redirectURL` opens): in development every account
/// signs in with one click; otherwise an email and the password an administrator set. Either way
/// the answer is a web auth token for the container, valid for ``tokenLifetime``.
public struct SignInService: Sendable {
    let store: any ContainerStore & AccountStore
    let identity: IdentityService
    let configuration: CoreConfiguration

    /// Tokens handed out by the sign-in page last this long (CloudKit's "keep me signed in": 2 weeks).
    public static let tokenLifetime: Int64 = 14 * 24 * 3600 * 1000

    /// Whether the page lists accounts to pick (`stratus serve --dev`) instead of asking for a password.
    public var listsAccounts: Bool { configuration.signInListsAccounts }

    /// The accounts the development page lists.
    public func accounts() async throws(CoreError) -> [AccountInfo] {
        guard listsAccounts else { return [] }
        do { return try await store.allAccounts(limit: 100) } catch { throw CoreError(error) }
    }

    /// Where a token signed in with `apiToken` (the `ckAPIToken` of the page's URL, if any) may go.
    /// - Throws: `NOT_FOUND` for a container this server does not have; `AUTHENTICATION_FAILED`
    ///   for an API token that is unknown or belongs to another container.
    public func targets(apiToken: String?, container: String) async throws(CoreError) -> SignInTargets {
        try await requireContainer(container)
        guard let apiToken, !apiToken.isEmpty else { return SignInTargets(settings: nil, allowsLoopback: listsAccounts) }
        guard let granted = try await identity.resolveAPIToken(apiToken), granted.container == container else {
            throw CoreError(.authenticationFailed, "invalid ckAPIToken for \(container)")
        }
        return SignInTargets(settings: granted.settings, allowsLoopback: listsAccounts)
    }

    /// Signs an account in to `container`: by email and password, or in development by email alone.
    /// - Throws: `NOT_FOUND` for a container this server does not have; `AUTHENTICATION_FAILED`
    ///   for an unknown email or a wrong password (the same answer for both).
    public func signIn(email: String, password: String?, container: String) async throws(CoreError) -> CreateWebAuthTokenResponse {
        try await requireContainer(container)
        let refused = CoreError(.authenticationFailed, "unknown email or wrong password")
        let account: StoredAccount?
        do { account = try await store.account(email: email) } catch { throw CoreError(error) }
        guard let account else { throw refused }
        if !listsAccounts {
            let stored: String?
            do { stored = try await store.passwordHash(userRecordName: account.userRecordName) } catch { throw CoreError(error) }
            guard let stored, let password, Passwords.verify(password, against: stored) else { throw refused }
        }
        let token = try await identity.createWebAuthToken(
            userRecordName: account.userRecordName, container: container, expiresAt: configuration.now() + Self.tokenLifetime
        )
        return CreateWebAuthTokenResponse(webAuthToken: token, userRecordName: account.userRecordName)
    }

    private func requireContainer(_ container: String) async throws(CoreError) {
        let exists: Bool
        do { exists = try await store.containerExists(container) } catch { throw CoreError(error) }
        guard exists else { throw CoreError(.notFound, "no container '\(container)' on this server") }
    }

    /// - Throws: `BAD_REQUEST` for a password too short to set (checked before anything changes).
    public static func checkPassword(_ password: String?) throws(CoreError) {
        if let password, password.count < 8 { throw CoreError.badRequest("a password needs at least 8 characters") }
    }

    /// Sets or clears an account's sign-in password (admin).
    public func setPassword(_ password: String?, userRecordName: String) async throws(CoreError) {
        try Self.checkPassword(password)
        let hash: String?
        do { hash = try password.map(Passwords.hash) } catch { throw CoreError.internal(cause: error) }
        do { try await store.setPasswordHash(hash, userRecordName: userRecordName) } catch { throw CoreError(error) }
    }
}
