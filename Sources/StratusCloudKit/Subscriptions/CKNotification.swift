import Foundation

/// A push notification CloudKit sent because a subscription fired, read from its payload with
/// ``init(fromRemoteNotificationDictionary:)`` — as a ``CKDatabaseNotification``,
/// ``CKRecordZoneNotification`` or ``CKQueryNotification``. A Stratus server serves the payloads
/// at its webcourier URL (polled as given, or with `?format=apns`): `aps` (the alert) and `ck` (the container `cid`, the
/// notification `nid`, the subscription's owner `ckuserid`, and one of `met`, `fet` or `qry`; see
/// `ApplePushPayload`). An entry of the webcourier's own feed (the JSON of one of its
/// `notifications`) reads the same way.
// `@unchecked Sendable`: every property is a `let`; `recordFields` holds the payload's property-list values.
open class CKNotification: NSObject, @unchecked Sendable {
    /// What fired.
    public enum NotificationType: Int, Sendable, Hashable {
        case query = 1
        case recordZone = 2
        case readNotification = 3
        case database = 4
    }

    public typealias ID = CKNotificationID

    public let notificationType: NotificationType
    public let notificationID: ID?
    public let containerIdentifier: String?
    /// The user who owns the subscription that fired (`nil` when the payload does not say).
    public let subscriptionOwnerUserRecordID: CKRecord.ID?
    /// Whether the server dropped notifications before this one (ask for changes, not for them),
    /// or left record fields out of this payload to keep it within APNs's size limit.
    public let isPruned: Bool
    public let subscriptionID: CKSubscription.ID?

    // The alert, as the subscription's `NotificationInfo` asked for it.
    public let alertBody: String?
    public let alertLocalizationKey: String?
    public let alertLocalizationArgs: [String]?
    public let title: String?
    public let titleLocalizationKey: String?
    public let titleLocalizationArgs: [String]?
    public let subtitle: String?
    public let subtitleLocalizationKey: String?
    public let subtitleLocalizationArgs: [String]?
    public let alertActionLocalizationKey: String?
    public let alertLaunchImage: String?
    public let badge: NSNumber?
    public let soundName: String?
    public let category: String?

    init(_ payload: NotificationPayload, type: NotificationType) {
        notificationType = type
        notificationID = payload.ck["nid"].flatMap { $0 as? String }.map(CKNotificationID.init)
        containerIdentifier = payload.ck["cid"] as? String
        subscriptionOwnerUserRecordID = payload.subscriptionOwner
        isPruned = payload.flag(payload.ck["p"])
        subscriptionID = payload.source["sid"] as? String
        let alert = payload.alert
        alertBody = alert["body"] as? String
        alertLocalizationKey = alert["loc-key"] as? String
        alertLocalizationArgs = alert["loc-args"] as? [String]
        title = alert["title"] as? String
        titleLocalizationKey = alert["title-loc-key"] as? String
        titleLocalizationArgs = alert["title-loc-args"] as? [String]
        subtitle = alert["subtitle"] as? String
        subtitleLocalizationKey = alert["subtitle-loc-key"] as? String
        subtitleLocalizationArgs = alert["subtitle-loc-args"] as? [String]
        alertActionLocalizationKey = alert["action-loc-key"] as? String
        alertLaunchImage = alert["launch-image"] as? String
        badge = payload.aps["badge"].flatMap(NotificationPayload.number)
        soundName = payload.aps["sound"] as? String
        category = payload.aps["category"] as? String
        super.init()
    }

    open override var description: String {
        "<\(type(of: self)): \(notificationType) subscription \(subscriptionID ?? "-") container \(containerIdentifier ?? "-")>"
    }
}

/// Apple's `CKNotification(fromRemoteNotificationDictionary:)` answers the subclass the payload
/// names; a Swift initializer can do that only from a protocol extension, where it may assign
/// `self`. Not for apps to conform to.
public protocol _CKNotificationFromPayload {}

extension CKNotification: _CKNotificationFromPayload {}

extension _CKNotificationFromPayload where Self: CKNotification {
    /// The notification a push payload (`userInfo` of a remote notification, a Stratus
    /// courier's answer, or an entry of its feed) describes; `nil` when it is not
    /// CloudKit's.
    public init?(fromRemoteNotificationDictionary notificationDictionary: [AnyHashable: Any]) {
        guard let payload = NotificationPayload(notificationDictionary) else { return nil }
        let notification: CKNotification =
            switch payload.kind {
            case .database: CKDatabaseNotification(payload)
            case .recordZone: CKRecordZoneNotification(payload)
            case .query: CKQueryNotification(payload)
            case .readNotification: CKNotification(payload, type: .readNotification)
            }
        guard let typed = notification as? Self else { return nil }
        self = typed
    }
}

/// A notification that something changed in a database (a ``CKDatabaseSubscription`` fired).
// `@unchecked Sendable`: immutable, as its superclass.
open class CKDatabaseNotification: CKNotification, @unchecked Sendable {
    public let databaseScope: CKDatabase.Scope

    init(_ payload: NotificationPayload) {
        databaseScope = payload.databaseScope
        super.init(payload, type: .database)
    }
}

/// A notification that a zone's records changed (a ``CKRecordZoneSubscription`` fired).
// `@unchecked Sendable`: immutable, as its superclass.
open class CKRecordZoneNotification: CKNotification, @unchecked Sendable {
    public let recordZoneID: CKRecordZone.ID?
    public let databaseScope: CKDatabase.Scope

    init(_ payload: NotificationPayload) {
        recordZoneID = payload.zoneID
        databaseScope = payload.databaseScope
        super.init(payload, type: .recordZone)
    }
}

/// A notification that a record matching a query was created, updated or deleted (a
/// ``CKQuerySubscription`` fired).
// `@unchecked Sendable`: immutable, as its superclass.
open class CKQueryNotification: CKNotification, @unchecked Sendable {
    /// What happened to the record.
    public enum Reason: Int, Sendable, Hashable {
        case recordCreated = 1
        case recordUpdated = 2
        case recordDeleted = 3
    }

    public let queryNotificationReason: Reason
    /// For a created or updated record, its values of the keys the subscription's
    /// `notificationInfo.desiredKeys` names, as a record holds them (`String`, `NSNumber`, `Date`,
    /// `CLLocation`, `CKRecord.Reference`). An APNs payload may leave some out to stay within its
    /// size limit (``CKNotification/isPruned`` then says so); a feed entry carries them all.
    public let recordFields: [String: Any]?
    public let recordID: CKRecord.ID?
    public let databaseScope: CKDatabase.Scope

    init(_ payload: NotificationPayload) {
        queryNotificationReason = payload.source["fo"].flatMap(NotificationPayload.number).flatMap { Reason(rawValue: $0.intValue) } ?? .recordUpdated
        let zoneID = payload.zoneID ?? .default
        recordFields = payload.recordFields(in: zoneID)
        recordID = (payload.source["rid"] as? String).map { CKRecord.ID(recordName: $0, zoneID: zoneID) }
        databaseScope = payload.databaseScope
        super.init(payload, type: .query)
    }
}

/// A notification's identifier (`CKNotification.ID`).
public final class CKNotificationID: NSObject, NSSecureCoding, NSCopying, Sendable {
    let value: String

    init(_ value: String) { self.value = value }

    public static var supportsSecureCoding: Bool { true }
    public func encode(with coder: NSCoder) { coder.encode(value as NSString, forKey: "notificationUUID") }
    public init?(coder: NSCoder) {
        guard let value = coder.string("notificationUUID") else { return nil }
        self.value = value
    }
    public func copy(with zone: NSZone? = nil) -> Any { self }
    public override func isEqual(_ object: Any?) -> Bool { (object as? CKNotificationID)?.value == value }
    public override var hash: Int { value.hashValue }
    public override var description: String { "<CKNotificationID: \(value)>" }
}

extension Notification.Name {
    /// Posted when the account a container uses changes: someone signed in, out, or another
    /// user did. Stratus posts it, with the container as its object, when a container learns
    /// of another user than before (`accountStatus()`, `userRecordID()`, a CKSyncEngine's account
    /// check) or that no one is signed in any more (any request refused for want of a user).
    public static let CKAccountChanged = Notification.Name("CKAccountChangedNotification")
}
