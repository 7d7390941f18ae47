import StratusModel
import StratusStore

/// users/caller, users/current, users/discover and the legacy users/lookup/*.
///
/// Every call needs a signed-in user, or a server-to-server key: the developer may look users
/// up and discover them (Apple's own S2S example is users/lookup/email) but has no identity of
/// its own, so users/caller and users/current refuse it with `BAD_REQUEST`. Others are found
/// only while they are discoverable (an account opts in); an undiscoverable or unknown user comes
/// back from users/discover as its `lookupInfo` alone and is left out of users/lookup/*. Another
/// user's email is never revealed: an identity's `lookupInfo` is what the caller looked it up by.
public struct UserService: Sendable {
    let store: any AccountStore
    let identity: IdentityService
    let configuration: CoreConfiguration

    /// The caller's own identity (always with names: it is the caller's).
    public func caller(scope: RequestScope) async throws(CoreError) -> CallerIdentityResponse {
        let account = try await signedInUser(scope, "users/caller")
        let ownLookup = LookupInfo(emailAddress: account.email, userRecordName: account.userRecordName)
        return CallerIdentityResponse(identity: userIdentity(of: account, lookupInfo: ownLookup), userRecordName: account.userRecordName)
    }

    /// The legacy users/current: the caller's record name, and names when the caller is discoverable.
    public func current(scope: RequestScope) async throws(CoreError) -> UserInfo {
        let account = try await signedInUser(scope, "users/current")
        guard account.discoverable else { return UserInfo(userRecordName: account.userRecordName) }
        return UserInfo(userRecordName: account.userRecordName, firstName: account.givenName, lastName: account.familyName)
    }

    /// One identity per lookup, in order.
    public func discover(_ request: DiscoverUsersRequest, scope: RequestScope) async throws(CoreError) -> UserIdentitiesResponse {
        try await requireCaller(scope)
        try configuration.checkCount(request.lookupInfos.count, of: "users")
        var users: [UserIdentity] = []
        for info in request.lookupInfos {
            let account = try await find(email: info.emailAddress, userRecordName: info.userRecordName)
            if let account, account.discoverable {
                users.append(userIdentity(of: account, lookupInfo: info))
            } else {
                users.append(UserIdentity(lookupInfo: info))
            }
        }
        return UserIdentitiesResponse(users: users)
    }

    /// The other users who opted in to discovery (CloudKit answers "the caller's contacts"; a
    /// simulator has no contacts, so every discoverable account is one), at most one page, each
    /// known by user record name only: listing reveals no one's email.
    public func discoverAll(scope: RequestScope) async throws(CoreError) -> UserIdentitiesResponse {
        try await requireCaller(scope)
        let caller = scope.caller.userRecordName
        do {
            let accounts = try await store.discoverableAccounts(limit: configuration.limits.resultsPerPage + 1)
            let others = accounts.filter { $0.userRecordName != caller }.prefix(configuration.limits.resultsPerPage)
            return UserIdentitiesResponse(users: others.map { account in
                userIdentity(of: account, lookupInfo: LookupInfo(userRecordName: account.userRecordName))
            })
        } catch {
            throw CoreError(error)
        }
    }

    /// users/lookup/email (`byEmail`, answers carry the email) and users/lookup/id.
    public func lookup(_ request: LookupUsersRequest, byEmail: Bool, scope: RequestScope) async throws(CoreError) -> UsersResponse {
        try await requireCaller(scope)
        try configuration.checkCount(request.users.count, of: "users")
        var users: [UserInfo] = []
        for item in request.users {
            let account = byEmail
                ? try await find(email: item.emailAddress, userRecordName: nil)
                : try await find(email: nil, userRecordName: item.userRecordName)
            guard let account, account.discoverable else { continue }
            users.append(UserInfo(
                userRecordName: account.userRecordName, firstName: account.givenName, lastName: account.familyName,
                emailAddress: byEmail ? account.email : nil
            ))
        }
        return UsersResponse(users: users)
    }

    // MARK: - Helpers

    /// The signed-in user's account, for the endpoints about the caller themself.
    /// - Throws: `BAD_REQUEST` for a server-to-server key (the developer is no user);
    ///   `AUTHENTICATION_REQUIRED` without a user; `AUTHENTICATION_FAILED` for an account gone.
    private func signedInUser(_ scope: RequestScope, _ endpoint: String) async throws(CoreError) -> AccountInfo {
        guard !scope.caller.isDeveloper else {
            throw CoreError.badRequest(
                "a server-to-server key acts as the developer, not a user; \(endpoint) needs a web auth token (ckAPIToken and ckWebAuthToken)"
            )
        }
        guard let name = scope.caller.userRecordName else {
            throw configuration.authenticationRequired(scope)
        }
        guard let account = try await find(email: nil, userRecordName: name) else {
            throw CoreError(.authenticationFailed, "the signed-in account no longer exists")
        }
        return account
    }

    /// A signed-in user whose account exists, or a server-to-server key (the developer), for
    /// the endpoints that find other users.
    /// - Throws: `AUTHENTICATION_REQUIRED` without either; `AUTHENTICATION_FAILED` for an account gone.
    private func requireCaller(_ scope: RequestScope) async throws(CoreError) {
        guard !scope.caller.isDeveloper else { return }
        _ = try await signedInUser(scope, "")
    }

    private func find(email: String?, userRecordName: String?) async throws(CoreError) -> AccountInfo? {
        try await identity.account(userRecordName: userRecordName, email: email)
    }

    /// The identity of `account` as found through `lookupInfo` (which holds only what the caller
    /// already knew).
    private func userIdentity(of account: AccountInfo, lookupInfo: LookupInfo) -> UserIdentity {
        UserIdentity(
            userRecordName: account.userRecordName,
            nameComponents: NameComponents(givenName: account.givenName, familyName: account.familyName),
            lookupInfo: lookupInfo
        )
    }
}
