import Foundation
import StratusModel

extension CKContainer {
    /// The identity of the discoverable account with this email, or `nil` when there is none.
    public func userIdentity(forEmailAddress emailAddress: String) async throws -> CKUserIdentity? {
        try await identity(LookupUsersRequest.Item(emailAddress: emailAddress), path: "public/users/lookup/email")
    }

    /// The identity of the discoverable account with this user record ID, or `nil` when there is none.
    public func userIdentity(forUserRecordID userRecordID: CKRecord.ID) async throws -> CKUserIdentity? {
        try await identity(LookupUsersRequest.Item(userRecordName: userRecordID.recordName), path: "public/users/lookup/id")
    }

    /// Phone numbers are not kept by Stratus's accounts: always `nil`.
    public func userIdentity(forPhoneNumber phoneNumber: String) async throws -> CKUserIdentity? { nil }

    private func identity(_ item: LookupUsersRequest.Item, path: String) async throws -> CKUserIdentity? {
        let found = try await post(path, LookupUsersRequest(users: [item]), as: UsersResponse.self)
        guard let user = found.users.first else { return nil }
        var components = PersonNameComponents()
        components.givenName = user.firstName
        components.familyName = user.lastName
        let id = CKRecord.ID(recordName: user.userRecordName)
        let lookup = CKUserIdentity.LookupInfo(emailAddress: user.emailAddress ?? item.emailAddress, phoneNumber: nil, userRecordID: id)
        return CKUserIdentity(userRecordID: id, lookupInfo: lookup, nameComponents: components)
    }
}
