import StratusModel
import StratusStore

/// What planning a request's share records needs to know beforehand: the accounts its
/// invitations name, the participant limit, and whether the zone may hold shares.
struct ShareContext: Sendable {
    /// Accounts by lower-cased email address and by user record name.
    var accountsByEmail: [String: StoredAccount] = [:]
    var accountsByName: [String: StoredAccount] = [:]
    var participantLimit = 100
    /// Shares live in custom zones only.
    var zoneMayHoldShares = true

    /// Looks up every account the share operations' participants name.
    static func load(
        for operations: [RecordOperation], store: any IdentityStore, limit: Int, zoneMayHoldShares: Bool
    ) async throws(StoreError) -> ShareContext {
        var context = ShareContext(participantLimit: limit, zoneMayHoldShares: zoneMayHoldShares)
        for operation in operations {
            for participant in operation.record.participants ?? [] {
                let identity = participant.userIdentity
                if let name = identity?.userRecordName ?? identity?.lookupInfo?.userRecordName,
                    let account = try await store.account(userRecordName: name)
                {
                    context.accountsByName[name] = account
                }
                if let email = identity?.lookupInfo?.emailAddress, let account = try await store.account(email: email) {
                    context.accountsByEmail[email.lowercased()] = account
                }
            }
        }
        return context
    }

    /// A wire participant as the store takes it, or why it cannot be invited.
    func spec(for participant: ShareParticipant) -> Result<ParticipantSpec, PlanningFailure> {
        let identity = participant.userIdentity
        var userRecordName = identity?.userRecordName ?? identity?.lookupInfo?.userRecordName
        let email = identity?.lookupInfo?.emailAddress
        if let name = userRecordName {
            guard accountsByName[name] != nil else { return .failure(PlanningFailure("no user has userRecordName '\(name)'")) }
        } else if let email {
            userRecordName = accountsByEmail[email.lowercased()]?.userRecordName
        } else if participant.participantId == nil {
            return .failure(PlanningFailure("a participant needs a participantId or a lookupInfo with an emailAddress or userRecordName"))
        }
        return .success(ParticipantSpec(
            id: participant.participantId, userRecordName: userRecordName, email: email?.lowercased(),
            role: participant.type ?? .user, permission: participant.permission ?? .readOnly,
            status: participant.acceptanceStatus == .removed ? .removed : nil
        ))
    }
}

/// Why an operation cannot become a write; it becomes a `BAD_REQUEST` item.
struct PlanningFailure: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
