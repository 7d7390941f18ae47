import Foundation

/// Saves and deletes subscriptions in one request (``CKDatabase/modifySubscriptions(saving:deleting:)``;
/// a save replaces a subscription with the same ID), reporting each subscription, then the
/// whole: a failure of any item makes the legacy completion block's error a `partialFailure` keyed by subscription ID.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKModifySubscriptionsOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The subscriptions to save.
    open var subscriptionsToSave: [CKSubscription]?
    /// The IDs of the subscriptions to delete.
    open var subscriptionIDsToDelete: [CKSubscription.ID]?

    /// Called once for each subscription to save: the saved subscription, or why it was not saved.
    open var perSubscriptionSaveBlock: ((CKSubscription.ID, Result<CKSubscription, any Error>) -> Void)?
    /// Called once for each subscription to delete: success, or why it was not deleted.
    open var perSubscriptionDeleteBlock: ((CKSubscription.ID, Result<Void, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var modifySubscriptionsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called last with the saved subscriptions, the deleted IDs and the operation's error.
    @available(*, deprecated, message: "Use modifySubscriptionsResultBlock")
    open var modifySubscriptionsCompletionBlock: (([CKSubscription]?, [CKSubscription.ID]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: (([CKSubscription]?, [CKSubscription.ID]?, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation saving and deleting these subscriptions.
    public convenience init(subscriptionsToSave: [CKSubscription]? = nil, subscriptionIDsToDelete: [CKSubscription.ID]? = nil) {
        self.init()
        self.subscriptionsToSave = subscriptionsToSave
        self.subscriptionIDsToDelete = subscriptionIDsToDelete
    }

    override func execute() async {
        let saves = subscriptionsToSave ?? []
        let deletes = subscriptionIDsToDelete ?? []
        do {
            try checkCancelled()
            let database = try requireDatabase()
            var saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
            var deleteResults: [CKSubscription.ID: Result<Void, any Error>] = [:]
            if !saves.isEmpty || !deletes.isEmpty {
                let answer = try await database.modifySubscriptions(saving: saves, deleting: deletes)
                saveResults = answer.saveResults
                deleteResults = answer.deleteResults
            }
            var failures: [AnyHashable: any Error] = [:]
            var saved: [CKSubscription] = []
            for subscription in saves {
                let id = subscription.subscriptionID
                let result = saveResults[id] ?? .failure(CKError(.internalError, "no answer for subscription \(id)"))
                perSubscriptionSaveBlock?(id, result)
                switch result {
                case .success(let savedSubscription): saved.append(savedSubscription)
                case .failure(let error): failures[id] = error
                }
            }
            var deleted: [CKSubscription.ID] = []
            for id in deletes {
                let result = deleteResults[id] ?? .failure(CKError(.internalError, "no answer for subscription \(id)"))
                perSubscriptionDeleteBlock?(id, result)
                switch result {
                case .success: deleted.append(id)
                case .failure(let error): failures[id] = error
                }
            }
            complete(saved: saved, deleted: deleted, error: CKError.partialFailure(failures, of: saves.count + deletes.count))
        } catch {
            complete(saved: nil, deleted: nil, error: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(saved: nil, deleted: nil, error: error)
    }

    private func complete(saved: [CKSubscription]?, deleted: [CKSubscription.ID]?, error: CKError?) {
        modifySubscriptionsResultBlock?(Self.modernResult(error))
        legacyCompletion?(saved, deleted, error)
    }
}
