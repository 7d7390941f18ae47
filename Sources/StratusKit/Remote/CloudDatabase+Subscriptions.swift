import StratusModel

/// Subscriptions of one database (`CKModifySubscriptionsOperation`, `CKFetchSubscriptionsOperation`).
extension CloudDatabase {
    /// subscriptions/modify: saves (creates) these subscriptions; each result in order.
    public func save(_ subscriptions: [Subscription]) async throws(CloudError) -> [Result<Subscription, CloudError>] {
        try await modifySubscriptions(subscriptions.map { .init(.create, $0) })
    }

    /// subscriptions/modify: deletes the subscriptions with these IDs.
    public func deleteSubscriptions(_ ids: [String]) async throws(CloudError) -> [Result<Subscription, CloudError>] {
        try await modifySubscriptions(ids.map { .init(.delete, Subscription(subscriptionID: $0, kind: .database)) })
    }

    /// subscriptions/list: every subscription the caller has in this database.
    public func allSubscriptions() async throws(CloudError) -> [Subscription] {
        try await transport.get("\(scope.rawValue)/subscriptions/list", as: SubscriptionsResponse.self).subscriptions.compactMap(\.value)
    }

    private func modifySubscriptions(_ operations: [ModifySubscriptionsRequest.Operation]) async throws(CloudError) -> [Result<Subscription, CloudError>] {
        let response = try await transport.post(
            "\(scope.rawValue)/subscriptions/modify", ModifySubscriptionsRequest(operations: operations), as: SubscriptionsResponse.self
        )
        return response.subscriptions.map { result in
            switch result {
            case .success(let subscription): .success(subscription)
            case .failure(let error):
                .failure(CloudError(serverErrorCode: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter, ckErrorCode: nil, serverRecord: nil))
            }
        }
    }
}
