import Foundation

/// Turns user lookups into share participants to add to a share: an email address through
/// ``CKContainer/shareParticipant(forEmailAddress:)`` (an address no account has fails
/// `unknownItem`), a user record ID through ``CKContainer/shareParticipant(forUserRecordID:)``.
/// Reports each lookup's participant, then the whole — a failure of any lookup makes the legacy
/// completion block's error a `partialFailure` keyed by its ``CKUserIdentity/LookupInfo``. A
/// container operation: run it with ``CKContainer/add(_:)``.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchShareParticipantsOperation: CKOperation, @unchecked Sendable {
    /// The users to make participants of.
    open var userIdentityLookupInfos: [CKUserIdentity.LookupInfo]?

    /// Called once for each lookup: its participant, or why none could be made.
    open var perShareParticipantResultBlock: ((CKUserIdentity.LookupInfo, Result<CKShare.Participant, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var fetchShareParticipantsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called with each participant made.
    @available(*, deprecated, message: "Use perShareParticipantResultBlock")
    open var shareParticipantFetchedBlock: ((CKShare.Participant) -> Void)? {
        get { legacyFetched }
        set { legacyFetched = newValue }
    }
    /// Called last with the operation's error.
    @available(*, deprecated, message: "Use fetchShareParticipantsResultBlock")
    open var fetchShareParticipantsCompletionBlock: (((any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyFetched: ((CKShare.Participant) -> Void)?
    private var legacyCompletion: (((any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation making participants of these users.
    public convenience init(userIdentityLookupInfos: [CKUserIdentity.LookupInfo]) {
        self.init()
        self.userIdentityLookupInfos = userIdentityLookupInfos
    }

    override func execute() async {
        let lookups = userIdentityLookupInfos ?? []
        do {
            let container = try requireContainer()
            var failures: [AnyHashable: any Error] = [:]
            for lookup in lookups {
                try checkCancelled()
                let result = try await participant(for: lookup, in: container)
                perShareParticipantResultBlock?(lookup, result)
                switch result {
                case .success(let participant): legacyFetched?(participant)
                case .failure(let error): failures[lookup] = error
                }
            }
            complete(CKError.partialFailure(failures, of: lookups.count))
        } catch {
            complete(Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(error)
    }

    private func complete(_ error: CKError?) {
        fetchShareParticipantsResultBlock?(Self.modernResult(error))
        legacyCompletion?(error)
    }

    /// One lookup's participant, or its failure when the failure is about the user (no such
    /// account, a phone number); a failure of the request itself is thrown.
    private func participant(
        for lookup: CKUserIdentity.LookupInfo, in container: CKContainer
    ) async throws -> Result<CKShare.Participant, any Error> {
        do {
            if let email = lookup.emailAddress {
                return .success(try await container.shareParticipant(forEmailAddress: email))
            }
            if let userRecordID = lookup.userRecordID {
                return .success(try await container.shareParticipant(forUserRecordID: userRecordID))
            }
            return .failure(CKError(.invalidArguments, "Stratus looks users up by email address or user record ID, not by phone number"))
        } catch {
            let failure = Self.ckError(error)
            guard CKDatabase.isItemLevel(failure) else { throw failure }
            return .failure(failure)
        }
    }
}
