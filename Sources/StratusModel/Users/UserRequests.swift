/// The answer to `GET …/users/caller`: the caller's identity, both as the body itself (CloudKit
/// JS reads one identity) and inside `users` (the archived reference's shape).
public struct CallerIdentityResponse: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var nameComponents: NameComponents?
    public var lookupInfo: LookupInfo?
    public var users: [UserIdentity]

    public init(identity: UserIdentity, userRecordName: String) {
        self.userRecordName = userRecordName
        self.nameComponents = identity.nameComponents
        self.lookupInfo = identity.lookupInfo
        self.users = [identity]
    }
}

/// `POST …/users/discover`: find users by email, phone number or user record name.
public struct DiscoverUsersRequest: Sendable, Hashable, Codable {
    public var lookupInfos: [LookupInfo]
    public init(lookupInfos: [LookupInfo]) { self.lookupInfos = lookupInfos }
}

/// The answer to users/discover: one identity per lookup (POST), or every discoverable user (GET).
public struct UserIdentitiesResponse: Sendable, Hashable, Codable {
    public var users: [UserIdentity]
    public init(users: [UserIdentity]) { self.users = users }
}

/// `POST …/users/lookup/email` and `…/users/lookup/id`: the legacy lookups.
public struct LookupUsersRequest: Sendable, Hashable, Codable {
    /// One requested user: `emailAddress` for lookup/email, `userRecordName` for lookup/id.
    public struct Item: Sendable, Hashable, Codable {
        public var emailAddress: String?
        public var userRecordName: String?
        public init(emailAddress: String? = nil, userRecordName: String? = nil) {
            self.emailAddress = emailAddress
            self.userRecordName = userRecordName
        }
    }

    public var users: [Item]
    public init(users: [Item]) { self.users = users }
}

/// The answer to users/lookup/*: the discoverable users found.
public struct UsersResponse: Sendable, Hashable, Codable {
    public var users: [UserInfo]
    public init(users: [UserInfo]) { self.users = users }
}
