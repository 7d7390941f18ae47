import Foundation
import StratusModel

/// Share participants from user lookups, as Apple's container makes them: a participant is a
/// person with an account (`unknownItem` otherwise), read-only and not yet accepted until the
/// owner says more and they accept.
extension CKContainer {
    /// A participant for the account with this email address.
    /// - Throws: `unknownItem` when no discoverable account has it.
    public func shareParticipant(forEmailAddress emailAddress: String) async throws -> CKShare.Participant {
        try await lookUpParticipant(LookupUsersRequest.Item(emailAddress: emailAddress), path: "public/users/lookup/email")
    }

    /// A participant for the account with this user record ID.
    /// - Throws: `unknownItem` when no discoverable account has it.
    public func shareParticipant(forUserRecordID userRecordID: CKRecord.ID) async throws -> CKShare.Participant {
        try await lookUpParticipant(LookupUsersRequest.Item(userRecordName: userRecordID.recordName), path: "public/users/lookup/id")
    }

    /// Stratus's accounts keep no phone numbers: always `unknownItem`.
    public func shareParticipant(forPhoneNumber phoneNumber: String) async throws -> CKShare.Participant {
        throw CKError(.unknownItem, "Stratus looks users up by email address or user record ID, not by phone number")
    }

    /// A participant for each email address, or why there is none (`unknownItem`: no account).
    public func shareParticipants(forEmailAddresses emailAddresses: [String]) async throws -> [String: Result<CKShare.Participant, any Error>] {
        try await eachParticipant(emailAddresses) { try await shareParticipant(forEmailAddress: $0) }
    }

    /// A participant for each user record ID, or why there is none.
    public func shareParticipants(forUserRecordIDs userRecordIDs: [CKRecord.ID]) async throws -> [CKRecord.ID: Result<CKShare.Participant, any Error>] {
        try await eachParticipant(userRecordIDs) { try await shareParticipant(forUserRecordID: $0) }
    }

    /// A failure for each phone number (Stratus's accounts keep none).
    public func shareParticipants(forPhoneNumbers phoneNumbers: [String]) async throws -> [String: Result<CKShare.Participant, any Error>] {
        try await eachParticipant(phoneNumbers) { try await shareParticipant(forPhoneNumber: $0) }
    }

    /// Each key's participant, or its failure when the failure is about that user; a failure of
    /// the request itself (the network, the credentials) is thrown.
    private func eachParticipant<Key: Hashable>(
        _ keys: [Key], _ participant: (Key) async throws -> CKShare.Participant
    ) async throws -> [Key: Result<CKShare.Participant, any Error>] {
        var results: [Key: Result<CKShare.Participant, any Error>] = [:]
        for key in keys where results[key] == nil {
            do {
                results[key] = .success(try await participant(key))
            } catch let error as CKError where CKDatabase.isItemLevel(error) {
                results[key] = .failure(error)
            }
        }
        return results
    }

    private func lookUpParticipant(_ item: LookupUsersRequest.Item, path: String) async throws(CKError) -> CKShare.Participant {
        let found = try await post(path, LookupUsersRequest(users: [item]), as: UsersResponse.self)
        guard let user = found.users.first else {
            throw CKError(.unknownItem, "no discoverable account has \(item.emailAddress ?? item.userRecordName ?? "that identity")")
        }
        let id = CKRecord.ID(recordName: user.userRecordName)
        var components = PersonNameComponents()
        components.givenName = user.firstName
        components.familyName = user.lastName
        let identity = CKUserIdentity(
            userRecordID: id, lookupInfo: CKUserIdentity.LookupInfo(emailAddress: user.emailAddress ?? item.emailAddress, phoneNumber: nil, userRecordID: id),
            nameComponents: components
        )
        return CKShare.Participant(userIdentity: identity, role: .privateUser, permission: .readOnly, acceptanceStatus: .unknown, participantID: nil)
    }
}
