import StratusModel

/// Whose subscriptions: one user's, in one database of a container environment.
public struct SubscriberKey: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    public var scope: DatabaseScope
    public var user: String

    public init(container: String, environment: ContainerEnvironment, scope: DatabaseScope, user: String) {
        self.container = container
        self.environment = environment
        self.scope = scope
        self.user = user
    }
}

/// A subscription as the store keeps it: its owner and database, and the wire dictionary.
public struct StoredSubscription: Sendable, Hashable {
    public var subscriber: SubscriberKey
    public var subscription: Subscription

    public init(subscriber: SubscriberKey, subscription: Subscription) {
        self.subscriber = subscriber
        self.subscription = subscription
    }
}

/// One subscription write of a subscriptions/modify request.
public enum SubscriptionChange: Sendable, Hashable {
    /// Fails with ``SubscriptionChangeOutcome/exists`` when the ID is taken.
    case create(Subscription)
    /// Fails with ``SubscriptionChangeOutcome/notFound`` when there is no such subscription.
    case update(Subscription)
    case delete(subscriptionID: String)
}

/// The result of one ``SubscriptionChange``, in order.
public enum SubscriptionChangeOutcome: Sendable, Hashable {
    case saved(Subscription)
    case deleted(Subscription)
    case exists
    case notFound
}

/// A push token (`tokens/create`): bound to an account by `tokens/register` (or at creation when
/// the caller is signed in), and to a device when the request names one.
public struct StoredPushToken: Sendable, Hashable {
    public var token: String
    public var container: String
    public var environment: ContainerEnvironment
    public var apnsEnvironment: String
    public var user: String?
    public var deviceID: String?
    /// The feed position when the token was made: a poll without a cursor starts here.
    public var startID: Int64

    public init(
        token: String, container: String, environment: ContainerEnvironment, apnsEnvironment: String,
        user: String?, deviceID: String?, startID: Int64
    ) {
        self.token = token
        self.container = container
        self.environment = environment
        self.apnsEnvironment = apnsEnvironment
        self.user = user
        self.deviceID = deviceID
        self.startID = startID
    }
}

/// A notification to append to a recipient's feed. Its ID is the feed position the store gives it.
public struct NewNotification: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    public var recipient: String
    /// The device whose write caused it: never delivered to that device's tokens.
    public var originDevice: String?
    public var notification: PushNotification

    public init(container: String, environment: ContainerEnvironment, recipient: String, originDevice: String?, notification: PushNotification) {
        self.container = container
        self.environment = environment
        self.recipient = recipient
        self.originDevice = originDevice
        self.notification = notification
    }
}

/// A page of a token's feed.
public struct NotificationPage: Sendable, Hashable {
    /// Feed position and notification (its `notificationID` set from the position), in order.
    public var entries: [(id: Int64, notification: PushNotification)]
    /// Notifications at or below this position were dropped from the recipient's feed.
    public var prunedThrough: Int64

    public init(entries: [(id: Int64, notification: PushNotification)], prunedThrough: Int64) {
        self.entries = entries
        self.prunedThrough = prunedThrough
    }

    public static func == (lhs: NotificationPage, rhs: NotificationPage) -> Bool {
        lhs.prunedThrough == rhs.prunedThrough && lhs.entries.map(\.id) == rhs.entries.map(\.id)
            && lhs.entries.map(\.notification) == rhs.entries.map(\.notification)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(prunedThrough)
        hasher.combine(entries.map(\.id))
    }
}

/// How long and how much of a recipient's feed is kept.
public struct NotificationRetention: Sendable, Hashable {
    /// The most notifications kept per recipient.
    public var perRecipient: Int
    /// Notifications younger than this (milliseconds) are kept unless over ``perRecipient``.
    public var age: Int64

    public init(perRecipient: Int = 1_000, age: Int64 = 24 * 3_600_000) {
        self.perRecipient = perRecipient
        self.age = age
    }
}

/// A participant of an owner's zone, as a change to the zone finds them.
public struct SharedAudienceMember: Sendable, Hashable {
    public var user: String
    /// The zone is in the user's shared database now.
    public var visible: Bool
    /// The user's access to the zone changed after the sequence value asked about (accepted,
    /// left, removed, sharing stopped).
    public var accessChanged: Bool

    public init(user: String, visible: Bool, accessChanged: Bool) {
        self.user = user
        self.visible = visible
        self.accessChanged = accessChanged
    }
}

/// Storage of push: subscriptions, push tokens and each recipient's notification feed. The feed
/// is data, so a restart (or another instance on the same database) loses nothing.
public protocol PushStore: Sendable {
    /// Applies a subscriptions/modify request's changes for one subscriber in one transaction.
    func modifySubscriptions(_ changes: [SubscriptionChange], of subscriber: SubscriberKey) async throws(StoreError) -> [SubscriptionChangeOutcome]
    /// A subscriber's subscriptions, by ID.
    func subscriptions(of subscriber: SubscriberKey) async throws(StoreError) -> [Subscription]
    /// The subscriptions of a database scope that may match a change: those of `users` (every
    /// user's when `nil`, as in the public database).
    func subscriptions(
        container: String, environment: ContainerEnvironment, scope: DatabaseScope, users: [String]?
    ) async throws(StoreError) -> [StoredSubscription]
    /// The participants of an owner's zone, for the shared databases a change in it may notify:
    /// every user who sees the zone now or whose access to it changed after `seq`.
    func sharedAudience(of zone: ZoneKey, changedAfter seq: Int64) async throws(StoreError) -> [SharedAudienceMember]
    /// Removes `firesOnce` subscriptions that fired.
    func deleteSubscriptions(_ subscriptions: [StoredSubscription]) async throws(StoreError)

    func createPushToken(_ token: StoredPushToken) async throws(StoreError)
    /// Binds a token to an account (and a device, when given). - Returns: `false` when no such token exists.
    func registerPushToken(_ token: String, user: String, deviceID: String?) async throws(StoreError) -> Bool
    func pushToken(_ token: String) async throws(StoreError) -> StoredPushToken?
    /// Moves a token's start (where a poll without a cursor begins) up to `position`, never back:
    /// what Apple's courier delivered is consumed. - Returns: whether this call moved it (of two
    /// polls delivering the same notification at once, one does).
    func advancePushToken(_ token: String, through position: Int64) async throws(StoreError) -> Bool

    /// Appends notifications in order and trims the recipients' feeds to `retention`.
    /// - Returns: the position of the last one appended.
    func appendNotifications(_ notifications: [NewNotification], retention: NotificationRetention, now: Int64) async throws(StoreError) -> Int64
    /// A token's notifications after `position` (its recipient's, not caused by its device), at most `limit`.
    func notifications(for token: StoredPushToken, after position: Int64, limit: Int) async throws(StoreError) -> NotificationPage
    /// The position of the newest notification of any feed (0 when none).
    func lastNotificationPosition() async throws(StoreError) -> Int64
}
