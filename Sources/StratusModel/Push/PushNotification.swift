/// One notification of a push token's feed, named as CloudKit JS names its notification objects.
///
/// Stratus delivers these on the webcourier long-poll and the server-sent-events stream instead
/// of APNs. Treat one as a hint, then fetch changes, as CloudKit advises.
public struct PushNotification: Sendable, Hashable, Codable {
    /// `notificationType` values.
    public enum Kind: String, Sendable, Hashable, Codable {
        case database, recordZone, query
    }

    /// `queryNotificationReason` values.
    public enum QueryReason: String, Sendable, Hashable, Codable {
        case recordCreated = "RECORD_CREATED"
        case recordUpdated = "RECORD_UPDATED"
        case recordDeleted = "RECORD_DELETED"
    }

    public var notificationID: String
    public var notificationType: Kind
    public var subscriptionID: String?
    /// The user record name of the subscription's owner (CKNotification's
    /// `subscriptionOwnerUserRecordID`; a Stratus key: CloudKit JS names no owner). Absent on the
    /// pruned marker and on notifications stored before Stratus kept it.
    public var subscriptionOwnerUserRecordName: String?
    public var containerIdentifier: String
    public var environment: ContainerEnvironment?
    public var databaseScope: DatabaseScope
    /// Zone notifications: the zone that changed; query notifications: the record's zone (its
    /// owner included). Absent on database notifications, as CKDatabaseNotification names no
    /// zone: the device fetches the database's changes.
    public var zoneID: ZoneID?
    /// Set on the one notification that stands for notifications dropped from the feed.
    public var isPruned: Bool
    /// Query notifications: the record and why it fired.
    public var recordName: String?
    public var queryNotificationReason: QueryReason?
    /// Query notifications of a created or updated record: the record's values, after the
    /// change, of the keys the subscription's `notificationInfo.desiredKeys` names — each a field
    /// as records carry it, `{value, type}` (CloudKit JS's `QueryNotification.recordFields`).
    /// Only the types CloudKit puts in a notification: STRING, INT64, DOUBLE, TIMESTAMP,
    /// LOCATION, REFERENCE. Absent when none of the keys has such a value, and on deletions.
    public var recordFields: [String: Field]?
    public var notificationInfo: NotificationInfo?
    /// Milliseconds since 1970.
    public var timestamp: Int64?

    public init(
        notificationID: String, notificationType: Kind, subscriptionID: String?, containerIdentifier: String,
        environment: ContainerEnvironment? = nil, databaseScope: DatabaseScope, zoneID: ZoneID? = nil, isPruned: Bool = false,
        recordName: String? = nil, queryNotificationReason: QueryReason? = nil, notificationInfo: NotificationInfo? = nil,
        timestamp: Int64? = nil, recordFields: [String: Field]? = nil, subscriptionOwnerUserRecordName: String? = nil
    ) {
        self.notificationID = notificationID
        self.notificationType = notificationType
        self.subscriptionID = subscriptionID
        self.containerIdentifier = containerIdentifier
        self.environment = environment
        self.databaseScope = databaseScope
        self.zoneID = zoneID
        self.isPruned = isPruned
        self.recordName = recordName
        self.queryNotificationReason = queryNotificationReason
        self.notificationInfo = notificationInfo
        self.timestamp = timestamp
        self.recordFields = recordFields
        self.subscriptionOwnerUserRecordName = subscriptionOwnerUserRecordName
    }
}

/// `GET <webcourierURL>?format=stratus[&cursor=C]`: Stratus's feed, the notifications due after the cursor, and the cursor to
/// send next (the same one when none were due).
public struct NotificationFeed: Sendable, Hashable, Codable {
    public var notifications: [PushNotification]
    public var cursor: String

    public init(notifications: [PushNotification], cursor: String) {
        self.notifications = notifications
        self.cursor = cursor
    }
}

/// `POST tokens/create` and `tokens/register`: `{ "apnsEnvironment", "apnsToken"? }`.
public struct PushTokenRequest: Sendable, Hashable, Codable {
    public var apnsEnvironment: String?
    public var apnsToken: String?

    public init(apnsEnvironment: String = "development", apnsToken: String? = nil) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
    }
}

/// The answer to tokens/create: the token and the long-poll URL that delivers its notifications.
public struct PushTokenResponse: Sendable, Hashable, Codable {
    public var apnsEnvironment: String
    public var apnsToken: String
    public var webcourierURL: String

    public init(apnsEnvironment: String, apnsToken: String, webcourierURL: String) {
        self.apnsEnvironment = apnsEnvironment
        self.apnsToken = apnsToken
        self.webcourierURL = webcourierURL
    }
}
