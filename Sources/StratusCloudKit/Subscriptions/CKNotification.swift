import Foundation

/// A push notification CloudKit sent because a subscription fired, read from its payload with
/// ``init(fromRemoteNotificationDictionary:)`` — as a ``CKDatabaseNotification``,
/// ``CKRecordZoneNotification`` or ``CKQueryNotification``. A Stratus server serves the payloads
/// at its webcourier URL with `?format=apns`: `aps` (the alert) and `ck` (the container `cid`, the
/// notification `nid`, and one of `met`, `fet` or `qry`; see `ApplePushPayload`).
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
    /// The user who owns the subscription that fired (not in Stratus's payloads: `nil`).
    public let subscriptionOwnerUserRecordID: CKRecord.ID?
    /// Whether the server dropped notifications before this one (ask for changes, not for them).
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
        subscriptionOwnerUserRecordID = nil
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
    /// The notification a push payload (`userInfo` of a remote notification, or a Stratus
    /// courier's `?format=apns` answer) describes; `nil` when it is not CloudKit's.
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
    /// The fields the subscription's `desiredKeys` asked for, when the payload carries them.
    public let recordFields: [String: Any]?
    public let recordID: CKRecord.ID?
    public let databaseScope: CKDatabase.Scope

    init(_ payload: NotificationPayload) {
        queryNotificationReason = payload.source["fo"].flatMap(NotificationPayload.number).flatMap { Reason(rawValue: $0.intValue) } ?? .recordUpdated
        recordFields = payload.source["af"] as? [String: Any]
        recordID = (payload.source["rid"] as? String).map { CKRecord.ID(recordName: $0, zoneID: payload.zoneID ?? .default) }
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

/// The parts of an APNs payload CloudKit's notifications read: `aps` and `ck` with its source
/// (`met` database, `fet` zone, `qry` query).
struct NotificationPayload {
    let aps: [String: Any]
    let ck: [String: Any]
    let source: [String: Any]
    let kind: CKNotification.NotificationType

    init?(_ dictionary: [AnyHashable: Any]) {
        guard let ck = dictionary["ck"] as? [String: Any] else { return nil }
        self.ck = ck
        aps = dictionary["aps"] as? [String: Any] ?? [:]
        if let source = ck["qry"] as? [String: Any] {
            (self.source, kind) = (source, .query)
        } else if let source = ck["fet"] as? [String: Any] {
            (self.source, kind) = (source, .recordZone)
        } else if let source = ck["met"] as? [String: Any] {
            (self.source, kind) = (source, .database)
        } else {
            return nil
        }
    }

    /// The alert dictionary (a bare string is its body).
    var alert: [String: Any] {
        if let text = aps["alert"] as? String { return ["body": text] }
        return aps["alert"] as? [String: Any] ?? [:]
    }

    /// `dbs`: 1 public, 2 private, 3 shared.
    var databaseScope: CKDatabase.Scope {
        source["dbs"].flatMap(Self.number).flatMap { CKDatabase.Scope(rawValue: $0.intValue) } ?? .private
    }

    /// The zone named by `zid` and `zoid`, as the framework names zones in each database: the
    /// caller's own (private, public) with ``CKCurrentUserDefaultName``, a shared one with its owner.
    var zoneID: CKRecordZone.ID? {
        guard let name = source["zid"] as? String else { return nil }
        guard databaseScope == .shared, let owner = source["zoid"] as? String else { return CKRecordZone.ID(zoneName: name) }
        return CKRecordZone.ID(zoneName: name, ownerName: owner)
    }

    func flag(_ value: Any?) -> Bool {
        if let flag = value as? Bool { return flag }
        return value.flatMap(Self.number)?.boolValue ?? false
    }

    /// A number however the dictionary holds it (JSON gives `NSNumber`, Swift literals `Int`).
    static func number(_ value: Any) -> NSNumber? {
        switch value {
        case let number as NSNumber: number
        case let number as Int: NSNumber(value: number)
        case let flag as Bool: NSNumber(value: flag)
        case let text as String: Int(text).map { NSNumber(value: $0) }
        default: nil
        }
    }
}

extension Notification.Name {
    /// Posted when the account a container uses changes: someone signed in, out, or another
    /// user did. Stratus posts it, with the container as its object, when a container learns
    /// of another user than before (`accountStatus()`, `userRecordID()`, a CKSyncEngine's account
    /// check) or that no one is signed in any more (any request refused for want of a user).
    public static let CKAccountChanged = Notification.Name("CKAccountChangedNotification")
}
