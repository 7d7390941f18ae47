import StratusModel
import StratusStore

/// users/caller, users/current, users/discover and the legacy users/lookup/*.
///
/// Apple documents them under the public database only: under private or shared they answer
/// `BAD_REQUEST` ("endpoint not applicable in the database type"), as Apple's do. Every call
/// needs a signed-in user, or a server-to-server key, which acts as the container's developer
/// (``ServerKeys/developer``): users/caller and users/current answer that identity (Apple's Node
/// sample starts with `setUpAuth()`, a signed users/caller), users/lookup/* look others up
/// (Apple's own S2S example is users/lookup/email), and users/discover refuses it with
/// `AUTHENTICATION_FAILED`, as Apple's service does. Others are found
/// only while they are discoverable (an account opts in); an undiscoverable or unknown user comes
/// back from users/discover as its `lookupInfo` alone and is left out of users/lookup/*. Another
/// user's email is never revealed: an identity's `lookupInfo` is what the caller looked it up by.
public struct UserService: Sendable {
    let store: any AccountStore
    let identity: IdentityService
    let configuration: CoreConfiguration

    /// The caller's own identity (always with names: it is the caller's).
    public func caller(scope: RequestScope) async throws(CoreError) -> CallerIdentityResponse {
        try Self.requirePublicDatabase(scope)
        if scope.caller.isDeveloper {
            let developer = ServerKeys.developer
            return CallerIdentityResponse(
                identity: UserIdentity(userRecordName: developer, lookupInfo: LookupInfo(userRecordName: developer)), userRecordName: developer
            )
        }
        let account = try await signedInUser(scope)
        let ownLookup = LookupInfo(emailAddress: account.email, userRecordName: account.userRecordName)
        return CallerIdentityResponse(identity: userIdentity(of: account, lookupInfo: ownLookup), userRecordName: account.userRecordName)
    }

    /// The legacy users/current: the caller's record name, and names when the caller is discoverable.
    public func current(scope: RequestScope) async throws(CoreError) -> UserInfo {
        try Self.requirePublicDatabase(scope)
        if scope.caller.isDeveloper { return UserInfo(userRecordName: ServerKeys.developer) }
        let account = try await signedInUser(scope)
        guard account.discoverable else { return UserInfo(userRecordName: account.userRecordName) }
        return UserInfo(userRecordName: account.userRecordName, firstName: account.givenName, lastName: account.familyName)
    }

    /// One identity per lookup, in order.
    public func discover(_ request: DiscoverUsersRequest, scope: RequestScope) async throws(CoreError) -> UserIdentitiesResponse {
        try await requireDiscoveringUser(scope)
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
        try await requireDiscoveringUser(scope)
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

    /// - Throws: `BAD_REQUEST` for the private or shared database (Apple serves the users
    ///   endpoints under public only).
    static func requirePublicDatabase(_ scope: RequestScope) throws(CoreError) {
        guard scope.database.scope == .public else {
            throw CoreError.badRequest("endpoint not applicable in the database type '\(scope.database.scope.rawValue)': users endpoints are under public")
        }
    }

    /// The signed-in user's account (a server-to-server key has none).
    /// - Throws: `AUTHENTICATION_REQUIRED` without a user; `AUTHENTICATION_FAILED` for an account gone.
    private func signedInUser(_ scope: RequestScope) async throws(CoreError) -> AccountInfo {
        guard let name = scope.caller.userRecordName else {
            throw configuration.authenticationRequired(scope)
        }
        guard let account = try await find(email: nil, userRecordName: name) else {
            throw CoreError(.authenticationFailed, "the signed-in account no longer exists")
        }
        return account
    }

    /// A signed-in user whose account exists, or a server-to-server key (the developer), for
    /// users/lookup/*, in the public database.
    /// - Throws: `BAD_REQUEST` outside public; `AUTHENTICATION_REQUIRED` without either;
    ///   `AUTHENTICATION_FAILED` for an account gone.
    private func requireCaller(_ scope: RequestScope) async throws(CoreError) {
        try Self.requirePublicDatabase(scope)
        guard !scope.caller.isDeveloper else { return }
        _ = try await signedInUser(scope)
    }

    /// A signed-in user whose account exists, for users/discover, in the public database.
    /// - Throws: `BAD_REQUEST` outside public; `AUTHENTICATION_FAILED` for a server-to-server key
    ///   (Apple refuses discovery to one) or an account gone; `AUTHENTICATION_REQUIRED` without a user.
    private func requireDiscoveringUser(_ scope: RequestScope) async throws(CoreError) {
        try Self.requirePublicDatabase(scope)
        guard !scope.caller.isDeveloper else {
            throw CoreError(.authenticationFailed, "users/discover needs a signed-in user: a server-to-server key may not discover users")
        }
        _ = try await signedInUser(scope)
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
