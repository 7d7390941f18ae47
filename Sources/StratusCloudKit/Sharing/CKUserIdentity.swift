import Foundation
import StratusModel

/// A user as others see them: their record ID, how they were looked up, their name.
public final class CKUserIdentity: NSObject, NSSecureCoding, Sendable {
    /// How a user is found: an email, a phone number or a user record ID.
    public typealias LookupInfo = CKUserIdentityLookupInfo
    public let userRecordID: CKRecord.ID?
    public let lookupInfo: LookupInfo?
    public let nameComponents: PersonNameComponents?
    /// Whether the identity belongs to an account (an invitation by email may name nobody yet).
    public let hasiCloudAccount: Bool
    public let contactIdentifiers: [String] = []

    init(userRecordID: CKRecord.ID?, lookupInfo: LookupInfo?, nameComponents: PersonNameComponents?) {
        self.userRecordID = userRecordID
        self.lookupInfo = lookupInfo
        self.nameComponents = nameComponents
        self.hasiCloudAccount = userRecordID != nil
    }

    convenience init(wire: UserIdentity) {
        let recordID = wire.userRecordName.map { CKRecord.ID(recordName: $0) }
        let lookup = wire.lookupInfo.map {
            LookupInfo(emailAddress: $0.emailAddress, phoneNumber: $0.phoneNumber, userRecordID: $0.userRecordName.map { CKRecord.ID(recordName: $0) })
        }
        var name: PersonNameComponents?
        if let components = wire.nameComponents {
            var parts = PersonNameComponents()
            parts.givenName = components.givenName
            parts.familyName = components.familyName
            parts.middleName = components.middleName
            parts.namePrefix = components.namePrefix
            parts.nameSuffix = components.nameSuffix
            parts.nickname = components.nickname
            name = parts
        }
        self.init(userRecordID: recordID, lookupInfo: lookup ?? recordID.map { LookupInfo(userRecordID: $0) }, nameComponents: name)
    }

    var wire: UserIdentity {
        var identity = UserIdentity(userRecordName: userRecordID?.recordName, lookupInfo: lookupInfo?.wire)
        if let nameComponents {
            identity.nameComponents = NameComponents(givenName: nameComponents.givenName, familyName: nameComponents.familyName)
        }
        return identity
    }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`UserRecordID`, `LookupInfo`, `NameComponents`, `HasICloudAccount`).
    public func encode(with coder: NSCoder) {
        if let userRecordID { coder.encode(userRecordID, forKey: "UserRecordID") }
        if let lookupInfo { coder.encode(lookupInfo, forKey: "LookupInfo") }
        if let nameComponents { coder.encode(ArchivedNameComponents(nameComponents), forKey: "NameComponents") }
        coder.encode(hasiCloudAccount, forKey: "HasICloudAccount")
    }

    public init?(coder: NSCoder) {
        userRecordID = coder.object(CKRecord.ID.self, "UserRecordID", "userRecordID")
        lookupInfo = coder.object(LookupInfo.self, "LookupInfo", "lookupInfo")
        nameComponents = ArchivedNameComponents.decode(from: coder, forKey: "NameComponents")
        hasiCloudAccount = coder.containsValue(forKey: "HasICloudAccount") ? coder.decodeBool(forKey: "HasICloudAccount") : userRecordID != nil
    }
}

/// How a user is found (`CKUserIdentity.LookupInfo`; top-level, as its Objective-C name).
public final class CKUserIdentityLookupInfo: NSObject, NSSecureCoding, Sendable {
    public let emailAddress: String?
    public let phoneNumber: String?
    public let userRecordID: CKRecord.ID?

    public init(emailAddress: String) {
        self.emailAddress = emailAddress
        self.phoneNumber = nil
        self.userRecordID = nil
    }

    public init(phoneNumber: String) {
        self.emailAddress = nil
        self.phoneNumber = phoneNumber
        self.userRecordID = nil
    }

    public init(userRecordID: CKRecord.ID) {
        self.emailAddress = nil
        self.phoneNumber = nil
        self.userRecordID = userRecordID
    }

    init(emailAddress: String?, phoneNumber: String?, userRecordID: CKRecord.ID?) {
        self.emailAddress = emailAddress
        self.phoneNumber = phoneNumber
        self.userRecordID = userRecordID
    }

    var wire: StratusModel.LookupInfo {
        StratusModel.LookupInfo(emailAddress: emailAddress, phoneNumber: phoneNumber, userRecordName: userRecordID?.recordName)
    }

    public static var supportsSecureCoding: Bool { true }

    /// Archived under Apple's keys (`EmailAddress`, `PhoneNumber`, `RecordID`).
    public func encode(with coder: NSCoder) {
        if let emailAddress { coder.encode(emailAddress as NSString, forKey: "EmailAddress") }
        if let phoneNumber { coder.encode(phoneNumber as NSString, forKey: "PhoneNumber") }
        if let userRecordID { coder.encode(userRecordID, forKey: "RecordID") }
    }

    public init?(coder: NSCoder) {
        emailAddress = coder.string("EmailAddress", "email")
        phoneNumber = coder.string("PhoneNumber", "phone")
        userRecordID = coder.object(CKRecord.ID.self, "RecordID", "userRecordID")
    }
}
