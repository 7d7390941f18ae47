import Foundation
import StratusModel

/// Fetches subscriptions by ID (one `subscriptions/lookup`) or every subscription of the caller
/// in the database (``fetchAllSubscriptionsOperation()``), reporting each subscription, then the
/// whole: a failure of any item makes the legacy completion block's error a `partialFailure` keyed by subscription ID.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchSubscriptionsOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The subscriptions to fetch (`nil` for an operation fetching every subscription).
    open var subscriptionIDs: [CKSubscription.ID]?

    /// Called once for each subscription: the subscription, or why it could not be fetched.
    open var perSubscriptionResultBlock: ((CKSubscription.ID, Result<CKSubscription, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var fetchSubscriptionsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called last with the fetched subscriptions by ID and the operation's error.
    @available(*, deprecated, message: "Use fetchSubscriptionsResultBlock")
    open var fetchSubscriptionCompletionBlock: (([CKSubscription.ID: CKSubscription]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: (([CKSubscription.ID: CKSubscription]?, (any Error)?) -> Void)?
    /// Whether the operation fetches every subscription (``fetchAllSubscriptionsOperation()``).
    private var fetchesAllSubscriptions = false

    public required override init() {
        super.init()
    }

    /// An operation fetching the subscriptions with these IDs.
    public convenience init(subscriptionIDs: [CKSubscription.ID]) {
        self.init()
        self.subscriptionIDs = subscriptionIDs
    }

    /// An operation fetching every subscription of the caller in the database it is added to.
    public class func fetchAllSubscriptionsOperation() -> Self {
        let operation = self.init()
        operation.fetchesAllSubscriptions = true
        return operation
    }

    override func execute() async {
        do {
            try checkCancelled()
            let database = try requireDatabase()
            var ids: [CKSubscription.ID] = []
            var results: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
            if fetchesAllSubscriptions && subscriptionIDs == nil {
                for subscription in try await database.allSubscriptions() where results[subscription.subscriptionID] == nil {
                    ids.append(subscription.subscriptionID)
                    results[subscription.subscriptionID] = .success(subscription)
                }
            } else {
                ids = Self.unique(subscriptionIDs ?? [])
                if !ids.isEmpty { results = try await lookUp(ids, in: database) }
            }
            var failures: [AnyHashable: any Error] = [:]
            var fetched: [CKSubscription.ID: CKSubscription] = [:]
            for id in ids {
                let result = results[id] ?? .failure(CKError(.unknownItem, "no subscription '\(id)'"))
                perSubscriptionResultBlock?(id, result)
                switch result {
                case .success(let subscription): fetched[id] = subscription
                case .failure(let error): failures[id] = error
                }
            }
            complete(fetched: fetched, error: CKError.partialFailure(failures, of: ids.count))
        } catch {
            complete(fetched: nil, error: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(fetched: nil, error: error)
    }

    private func complete(fetched: [CKSubscription.ID: CKSubscription]?, error: CKError?) {
        fetchSubscriptionsResultBlock?(Self.modernResult(error))
        legacyCompletion?(fetched, error)
    }

    /// The subscriptions with these IDs in one `subscriptions/lookup`, each by the ID its
    /// answer names (an ID the server does not answer is `unknownItem`).
    private func lookUp(_ ids: [CKSubscription.ID], in database: CKDatabase) async throws -> [CKSubscription.ID: Result<CKSubscription, any Error>] {
        let response = try await database.post(
            "subscriptions/lookup", LookupSubscriptionsRequest(subscriptionIDs: ids), as: SubscriptionsResponse.self
        )
        var results: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for entry in response.subscriptions {
            switch entry {
            case .success(let wire): results[wire.subscriptionID] = .success(CKSubscription.from(wire: wire))
            case .failure(let error): results[error.subscriptionID] = .failure(CKError(error))
            }
        }
        return results
    }
}
