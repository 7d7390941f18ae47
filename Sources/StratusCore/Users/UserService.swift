import StratusModel
import StratusStore

/// users/caller, users/current, users/discover and the legacy users/lookup/*.
///
/// Every call needs a signed-in user. Others are found only while they are discoverable; an
/// undiscoverable or unknown user comes back from users/discover as its `lookupInfo` alone and is
/// left out of users/lookup/*.
public struct UserService: Sendable {
    let store: any IdentityStore
    let identity: IdentityService
    let configuration: CoreConfiguration

    /// The caller's own identity (always with names: it is the caller's).
    public func caller(scope: RequestScope) async throws(CoreError) -> CallerIdentityResponse {
        let account = try await signedIn(scope)
        return CallerIdentityResponse(identity: userIdentity(of: account), userRecordName: account.userRecordName)
    }

    /// The legacy users/current: the caller's record name, and names when the caller is discoverable.
    public func current(scope: RequestScope) async throws(CoreError) -> UserInfo {
        let account = try await signedIn(scope)
        guard account.discoverable else { return UserInfo(userRecordName: account.userRecordName) }
        return UserInfo(userRecordName: account.userRecordName, firstName: account.givenName, lastName: account.familyName)
    }

    /// One identity per lookup, in order.
    public func discover(_ request: DiscoverUsersRequest, scope: RequestScope) async throws(CoreError) -> UserIdentitiesResponse {
        _ = try await signedIn(scope)
        try configuration.checkCount(request.lookupInfos.count, of: "users")
        var users: [UserIdentity] = []
        for info in request.lookupInfos {
            let account = try await find(email: info.emailAddress, userRecordName: info.userRecordName)
            if let account, account.discoverable {
                users.append(userIdentity(of: account))
            } else {
                users.append(UserIdentity(lookupInfo: info))
            }
        }
        return UserIdentitiesResponse(users: users)
    }

    /// Every discoverable user (CloudKit answers "the caller's contacts"; a simulator has no
    /// contacts, so every discoverable account is one), at most one page.
    public func discoverAll(scope: RequestScope) async throws(CoreError) -> UserIdentitiesResponse {
        _ = try await signedIn(scope)
        do {
            let accounts = try await store.discoverableAccounts(limit: configuration.limits.resultsPerPage)
            return UserIdentitiesResponse(users: accounts.map { userIdentity(of: AccountInfo($0)) })
        } catch {
            throw CoreError(error)
        }
    }

    /// users/lookup/email (`byEmail`, answers carry the email) and users/lookup/id.
    public func lookup(_ request: LookupUsersRequest, byEmail: Bool, scope: RequestScope) async throws(CoreError) -> UsersResponse {
        _ = try await signedIn(scope)
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

    private func signedIn(_ scope: RequestScope) async throws(CoreError) -> AccountInfo {
        guard let name = scope.caller.userRecordName else {
            throw configuration.authenticationRequired
        }
        guard let account = try await find(email: nil, userRecordName: name) else {
            throw CoreError(.authenticationFailed, "the signed-in account no longer exists")
        }
        return account
    }

    private func find(email: String?, userRecordName: String?) async throws(CoreError) -> AccountInfo? {
        try await identity.account(userRecordName: userRecordName, email: email)
    }

    private func userIdentity(of account: AccountInfo) -> UserIdentity {
        UserIdentity(
            userRecordName: account.userRecordName,
            nameComponents: NameComponents(givenName: account.givenName, familyName: account.familyName),
            lookupInfo: LookupInfo(emailAddress: account.email, userRecordName: account.userRecordName)
        )
    }
}
