/// A subscription dictionary, as CloudKit Web Services sends and receives it (§3.7 of the wire
/// reference), plus `database` (CKDatabaseSubscription, which CKSyncEngine uses).
///
/// `zone` subscriptions name one custom zone of the private database; `query` subscriptions carry
/// a query, `firesOn` and `firesOnce` (and `zoneID`, or `zoneWide` for every zone); `database`
/// subscriptions cover every zone of the private or shared database.
public struct Subscription: Sendable, Hashable, Codable {
    /// The `subscriptionType` values.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        case zone, query, database
    }

    /// The `firesOn` values of a query subscription.
    public enum Trigger: String, Sendable, Hashable, Codable, CaseIterable {
        case create, update, delete
    }

    public var subscriptionID: String
    /// Kept as sent, so an unknown or missing type is a per-item error rather than an
    /// undecodable body (a delete may name only the `subscriptionID`).
    public var subscriptionType: String?
    public var zoneID: ZoneID?
    public var zoneWide: Bool?
    public var query: Query?
    public var firesOn: [String]?
    public var firesOnce: Bool?
    /// Zone and database subscriptions: only changes to records of this type fire them
    /// (CKRecordZoneSubscription's and CKDatabaseSubscription's `recordType`; a Stratus key,
    /// present only when a client sets it).
    public var recordType: String?
    public var notificationInfo: NotificationInfo?

    public init(
        subscriptionID: String, kind: Kind, zoneID: ZoneID? = nil, zoneWide: Bool? = nil, query: Query? = nil,
        firesOn: [Trigger]? = nil, firesOnce: Bool? = nil, notificationInfo: NotificationInfo? = nil
    ) {
        self.subscriptionID = subscriptionID
        self.subscriptionType = kind.rawValue
        self.zoneID = zoneID
        self.zoneWide = zoneWide
        self.query = query
        self.firesOn = firesOn?.map(\.rawValue)
        self.firesOnce = firesOnce
        self.notificationInfo = notificationInfo
    }

    /// The type, when it is one CloudKit knows.
    public var kind: Kind? { subscriptionType.flatMap(Kind.init(rawValue:)) }

    /// The `firesOn` values, when every one is known (an empty or missing list is `nil`).
    public var triggers: Set<Trigger>? {
        guard let firesOn, !firesOn.isEmpty else { return nil }
        let known = firesOn.compactMap(Trigger.init(rawValue:))
        return known.count == firesOn.count ? Set(known) : nil
    }
}

/// How a notification is presented on a device (stored and echoed; Stratus delivers no alerts).
/// CKWS's keys, then those of the native `CKSubscription.NotificationInfo` (each present only
/// when a client sets it).
public struct NotificationInfo: Sendable, Hashable, Codable {
    public var alertBody: String?
    public var alertLocalizationKey: String?
    public var alertLocalizationArgs: [String]?
    public var alertActionLocalizationKey: String?
    public var alertLaunchImage: String?
    public var soundName: String?
    public var shouldBadge: Bool?
    public var shouldSendContentAvailable: Bool?
    public var title: String?
    public var titleLocalizationKey: String?
    public var titleLocalizationArgs: [String]?
    public var subtitle: String?
    public var subtitleLocalizationKey: String?
    public var subtitleLocalizationArgs: [String]?
    /// The record fields a query notification carries (`recordFields`): the native
    /// `CKSubscription.NotificationInfo`'s name.
    public var desiredKeys: [String]?
    /// The same, by the name of CKWS's notification info dictionary (CloudKit JS's
    /// `NotificationInfo.additionalFields`); `desiredKeys` wins when both are given.
    public var additionalFields: [String]?
    public var shouldSendMutableContent: Bool?
    public var category: String?
    public var collapseIDKey: String?

    /// The keys whose values a query notification carries: `desiredKeys`, else `additionalFields`.
    public var notifiedKeys: [String] { desiredKeys ?? additionalFields ?? [] }

    public init(alertBody: String? = nil, soundName: String? = nil, shouldBadge: Bool? = nil, shouldSendContentAvailable: Bool? = nil) {
        self.alertBody = alertBody
        self.soundName = soundName
        self.shouldBadge = shouldBadge
        self.shouldSendContentAvailable = shouldSendContentAvailable
    }
}
