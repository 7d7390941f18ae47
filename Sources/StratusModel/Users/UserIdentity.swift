/// A person's name, as `PersonNameComponents` spells it on the wire.
public struct NameComponents: Sendable, Hashable, Codable {
    public var namePrefix: String?
    public var givenName: String?
    public var middleName: String?
    public var familyName: String?
    public var nameSuffix: String?
    public var nickname: String?

    public init(givenName: String? = nil, familyName: String? = nil) {
        self.givenName = givenName
        self.familyName = familyName
    }
}

/// How a user is looked up: by email, phone number or user record name.
public struct LookupInfo: Sendable, Hashable, Codable {
    public var emailAddress: String?
    public var phoneNumber: String?
    public var userRecordName: String?

    public init(emailAddress: String? = nil, phoneNumber: String? = nil, userRecordName: String? = nil) {
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.userRecordName = userRecordName
    }
}

/// A user identity: `{ userRecordName, nameComponents, lookupInfo }`. A user who is not
/// discoverable (or not found) appears with `lookupInfo` only.
public struct UserIdentity: Sendable, Hashable, Codable {
    public var userRecordName: String?
    public var nameComponents: NameComponents?
    public var lookupInfo: LookupInfo?

    public init(userRecordName: String? = nil, nameComponents: NameComponents? = nil, lookupInfo: LookupInfo? = nil) {
        self.userRecordName = userRecordName
        self.nameComponents = nameComponents
        self.lookupInfo = lookupInfo
    }
}

/// The legacy user dictionary of users/current and users/lookup/*.
public struct UserInfo: Sendable, Hashable, Codable {
    public var userRecordName: String
    public var firstName: String?
    public var lastName: String?
    /// Only in users/lookup/email answers.
    public var emailAddress: String?

    public init(userRecordName: String, firstName: String? = nil, lastName: String? = nil, emailAddress: String? = nil) {
        self.userRecordName = userRecordName
        self.firstName = firstName
        self.lastName = lastName
        self.emailAddress = emailAddress
    }
}
