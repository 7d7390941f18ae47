import Foundation
import StratusModel

extension CKDatabase {
    /// Saves a subscription (creating or replacing it).
    public func save(_ subscription: CKSubscription) async throws -> CKSubscription {
        let (saves, _) = try await modifySubscriptions(saving: [subscription], deleting: [])
        guard let result = saves[subscription.subscriptionID] else { throw CKError(.internalError, "subscriptions/modify answered nothing") }
        return try result.get()
    }

    /// The subscription with this ID.
    public func subscription(for id: CKSubscription.ID) async throws -> CKSubscription {
        let response = try await post("subscriptions/lookup", LookupSubscriptionsRequest(subscriptionIDs: [id]), as: SubscriptionsResponse.self)
        switch response.subscriptions.first {
        case .success(let wire)?: return CKSubscription.from(wire: wire)
        case .failure(let error)?: throw CKError(error)
        case nil: throw CKError(.unknownItem, "no subscription '\(id)'")
        }
    }

    /// The subscriptions with these IDs, each the subscription or why it could not be fetched.
    public func subscriptions(for ids: [CKSubscription.ID]) async throws -> [CKSubscription.ID: Result<CKSubscription, any Error>] {
        guard !ids.isEmpty else { return [:] }
        let response = try await post("subscriptions/lookup", LookupSubscriptionsRequest(subscriptionIDs: ids), as: SubscriptionsResponse.self)
        var results: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        for (id, entry) in zip(ids, response.subscriptions) {
            switch entry {
            case .success(let wire): results[id] = .success(CKSubscription.from(wire: wire))
            case .failure(let error): results[id] = .failure(CKError(error))
            }
        }
        for id in ids where results[id] == nil { results[id] = .failure(CKError(.unknownItem, "no subscription '\(id)'")) }
        return results
    }

    /// Every subscription of the caller in this database.
    public func allSubscriptions() async throws -> [CKSubscription] {
        try await container.get(path("subscriptions/list"), as: SubscriptionsResponse.self).subscriptions.compactMap(\.value).map(CKSubscription.from(wire:))
    }

    /// Deletes a subscription; answers its ID.
    @discardableResult
    public func deleteSubscription(withID id: CKSubscription.ID) async throws -> CKSubscription.ID {
        let (_, deletes) = try await modifySubscriptions(saving: [], deleting: [id])
        guard let result = deletes[id] else { throw CKError(.internalError, "subscriptions/modify answered nothing") }
        try result.get()
        return id
    }

    /// Saves and deletes subscriptions in one subscriptions/modify (a save replaces one that exists).
    public func modifySubscriptions(
        saving subscriptionsToSave: [CKSubscription], deleting subscriptionIDsToDelete: [CKSubscription.ID]
    ) async throws -> (saveResults: [CKSubscription.ID: Result<CKSubscription, any Error>], deleteResults: [CKSubscription.ID: Result<Void, any Error>]) {
        let existing = Set(try await allSubscriptions().map(\.subscriptionID))
        var operations: [ModifySubscriptionsRequest.Operation] = []
        for subscription in subscriptionsToSave {
            operations.append(.init(existing.contains(subscription.subscriptionID) ? .update : .create, try subscription.wire()))
        }
        operations += subscriptionIDsToDelete.map { .init(.delete, Subscription(subscriptionID: $0, kind: .database)) }
        let answers = try await post("subscriptions/modify", ModifySubscriptionsRequest(operations: operations), as: SubscriptionsResponse.self).subscriptions
        var saves: [CKSubscription.ID: Result<CKSubscription, any Error>] = [:]
        var deletes: [CKSubscription.ID: Result<Void, any Error>] = [:]
        for (index, answer) in answers.enumerated() {
            if index < subscriptionsToSave.count {
                let subscription = subscriptionsToSave[index]
                switch answer {
                case .success: saves[subscription.subscriptionID] = .success(subscription)
                case .failure(let error): saves[subscription.subscriptionID] = .failure(CKError(error))
                }
            } else if index - subscriptionsToSave.count < subscriptionIDsToDelete.count {
                let id = subscriptionIDsToDelete[index - subscriptionsToSave.count]
                switch answer {
                case .success: deletes[id] = .success(())
                case .failure(let error): deletes[id] = .failure(CKError(error))
                }
            }
        }
        // Made by another device between the list and the create (two engines of one account
        // starting at once): a save replaces, so it is sent again as an update.
        let raced = subscriptionsToSave.filter { subscription in
            guard !existing.contains(subscription.subscriptionID), case .failure(let error as CKError)? = saves[subscription.subscriptionID] else { return false }
            return error.code == .serverRecordChanged
        }
        if !raced.isEmpty {
            let again = try raced.map { ModifySubscriptionsRequest.Operation(.update, try $0.wire()) }
            let answers = try await post("subscriptions/modify", ModifySubscriptionsRequest(operations: again), as: SubscriptionsResponse.self).subscriptions
            for (subscription, answer) in zip(raced, answers) {
                switch answer {
                case .success: saves[subscription.subscriptionID] = .success(subscription)
                case .failure(let error): saves[subscription.subscriptionID] = .failure(CKError(error))
                }
            }
        }
        return (saves, deletes)
    }
}
