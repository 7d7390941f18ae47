/// `POST …/subscriptions/modify`.
public struct ModifySubscriptionsRequest: Sendable, Hashable, Codable {
    /// The `operationType` of a subscription operation.
    public enum OperationType: String, Sendable, Hashable, Codable {
        case create, update, delete
    }

    /// One subscription operation.
    public struct Operation: Sendable, Hashable, Codable {
        public var operationType: OperationType
        public var subscription: Subscription

        public init(_ operationType: OperationType, _ subscription: Subscription) {
            self.operationType = operationType
            self.subscription = subscription
        }
    }

    public var operations: [Operation]
    public init(operations: [Operation]) { self.operations = operations }
}

/// `POST …/subscriptions/lookup`.
public struct LookupSubscriptionsRequest: Sendable, Hashable, Codable {
    /// `{ "subscriptionID" }`.
    public struct Item: Sendable, Hashable, Codable {
        public var subscriptionID: String
        public init(subscriptionID: String) { self.subscriptionID = subscriptionID }
    }

    public var subscriptions: [Item]
    public init(subscriptionIDs: [String]) { self.subscriptions = subscriptionIDs.map(Item.init) }
}

/// The error CloudKit puts in place of a subscription in a 200.
public struct SubscriptionError: Sendable, Hashable, Codable, Error {
    public var subscriptionID: String
    public var reason: String
    public var serverErrorCode: ServerErrorCode
    public var retryAfter: Int?
    public var uuid: String?
    public var redirectURL: String?

    public init(subscriptionID: String, serverErrorCode: ServerErrorCode, reason: String, uuid: String? = nil) {
        self.subscriptionID = subscriptionID
        self.serverErrorCode = serverErrorCode
        self.reason = reason
        self.uuid = uuid
    }
}

/// An entry of a subscriptions response: a subscription or its error.
public typealias SubscriptionResult = ItemResult<Subscription, SubscriptionError>

/// The answer to subscriptions/list, subscriptions/lookup and subscriptions/modify (a delete
/// answers the subscription as it was).
public struct SubscriptionsResponse: Sendable, Hashable, Codable {
    public var subscriptions: [SubscriptionResult]
    public init(subscriptions: [SubscriptionResult]) { self.subscriptions = subscriptions }
}
