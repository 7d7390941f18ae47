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

    /// Looks up, in one read, every account the participants of the share operations within
    /// the participant limit name; an operation over the limit is refused by planning unread.
    static func load(
        for operations: [RecordOperation], store: any AccountStore, limit: Int, zoneMayHoldShares: Bool
    ) async throws(StoreError) -> ShareContext {
        var context = ShareContext(participantLimit: limit, zoneMayHoldShares: zoneMayHoldShares)
        var names: Set<String> = []
        var emails: Set<String> = []
        for operation in operations {
            guard let participants = operation.record.participants, context.limitFailure(participants) == nil else { continue }
            for participant in participants {
                let identity = participant.userIdentity
                if let name = identity?.userRecordName ?? identity?.lookupInfo?.userRecordName { names.insert(name) }
                if let email = identity?.lookupInfo?.emailAddress { emails.insert(email.lowercased()) }
            }
        }
        for account in try await store.accounts(userRecordNames: names.sorted(), emails: emails.sorted()) {
            if names.contains(account.userRecordName) { context.accountsByName[account.userRecordName] = account }
            if emails.contains(account.email.lowercased()) { context.accountsByEmail[account.email.lowercased()] = account }
        }
        return context
    }

    /// Why a share save naming `participants` would exceed the limit, checked before any work:
    /// the saved share holds its owner and every participant given that is not removed.
    func limitFailure(_ participants: [ShareParticipant]) -> PlanningFailure? {
        let count = 1 + participants.count { $0.acceptanceStatus != .removed && $0.type != .owner }
        guard count > participantLimit else { return nil }
        return PlanningFailure("a share may have at most \(participantLimit) participants, this one would have \(count)")
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
