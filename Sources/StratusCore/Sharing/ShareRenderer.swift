import StratusModel
import StratusStore

/// Renders share records for one caller: the participants with their identities, the owner,
/// the caller's own participant, the public permission and the share URL.
struct ShareRenderer: Sendable {
    let shares: [String: StoredShare]
    let accounts: [String: StoredAccount]
    let caller: String?
    let urlPrefix: String

    /// A renderer for the shares among `records`, or `nil` when there are none.
    static func load(
        for records: [StoredRecord], in zone: ZoneKey, caller: String?, store: any ShareStore & AccountStore, urlPrefix: String
    ) async throws(StoreError) -> ShareRenderer? {
        guard records.contains(where: { !$0.deleted && ShareNames.isShareType($0.type) }) else { return nil }
        return try await make(store.shares(in: zone), caller: caller, store: store, urlPrefix: urlPrefix)
    }

    static func make(
        _ shares: [StoredShare], caller: String?, store: any AccountStore, urlPrefix: String
    ) async throws(StoreError) -> ShareRenderer {
        var accounts: [String: StoredAccount] = [:]
        let users = Set(shares.flatMap { share in share.participants.compactMap(\.userRecordName) + [share.owner] })
        for user in users {
            if let account = try await store.account(userRecordName: user) { accounts[user] = account }
        }
        return ShareRenderer(
            shares: Dictionary(shares.map { ($0.record.name, $0) }, uniquingKeysWith: { first, _ in first }),
            accounts: accounts, caller: caller, urlPrefix: urlPrefix
        )
    }

    /// Adds the share's fields to a record dictionary of a share record.
    func decorate(_ record: inout Record) {
        guard let name = record.recordName, let share = shares[name] else { return }
        record.recordType = ShareNames.recordType
        record.publicPermission = share.publicPermission
        record.participants = share.participants.map(participant)
        record.owner = share.participants.first { $0.role == .owner }.map(participant)
        if let caller {
            record.currentUserParticipant = share.participant(user: caller).map(participant)
        }
        record.shortGUID = share.shortGUID
        record.url = urlPrefix + share.shortGUID
    }

    func participant(_ stored: StoredParticipant) -> ShareParticipant {
        var identity = stored.userRecordName.map(identity(of:)) ?? UserIdentity(lookupInfo: LookupInfo(emailAddress: stored.email))
        if identity.lookupInfo?.emailAddress == nil, let email = stored.email {
            identity.lookupInfo = LookupInfo(emailAddress: email, userRecordName: stored.userRecordName)
        }
        return ShareParticipant(
            participantId: stored.id, userIdentity: identity, type: stored.role, permission: stored.permission,
            acceptanceStatus: stored.status
        )
    }

    /// The identity of an account: names and email when the account exists.
    func identity(of user: String) -> UserIdentity {
        guard let account = accounts[user] else {
            return UserIdentity(userRecordName: user, lookupInfo: LookupInfo(userRecordName: user))
        }
        return UserIdentity(
            userRecordName: user,
            nameComponents: NameComponents(givenName: account.givenName, familyName: account.familyName),
            lookupInfo: LookupInfo(emailAddress: account.email, userRecordName: user)
        )
    }
}
