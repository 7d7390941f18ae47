import Foundation
import StratusModel

/// A subscription: what the server notifies the account's devices of. Use a subclass —
/// ``CKDatabaseSubscription``, ``CKRecordZoneSubscription`` or ``CKQuerySubscription``.
open class CKSubscription: NSObject, NSSecureCoding, @unchecked Sendable {
    public typealias ID = String

    /// What kind of subscription.
    public enum SubscriptionType: Int, Sendable, Hashable {
        case query = 1
        case recordZone = 2
        case database = 3
    }

    /// How a notification is presented (stored and echoed; Stratus delivers no alerts).
    open class NotificationInfo: NSObject, @unchecked Sendable {
        open var alertBody: String?
        open var alertLocalizationKey: String?
        open var alertLocalizationArgs: [String]?
        open var alertActionLocalizationKey: String?
        open var alertLaunchImage: String?
        open var soundName: String?
        open var shouldBadge = false
        open var shouldSendContentAvailable = false
        open var shouldSendMutableContent = false
        open var desiredKeys: [CKRecord.FieldKey]?
        open var category: String?
        open var title: String?
        open var subtitle: String?

        public override init() {}

        var wire: StratusModel.NotificationInfo {
            var info = StratusModel.NotificationInfo(
                alertBody: alertBody, soundName: soundName, shouldBadge: shouldBadge, shouldSendContentAvailable: shouldSendContentAvailable
            )
            info.alertLocalizationKey = alertLocalizationKey
            info.alertLocalizationArgs = alertLocalizationArgs
            info.alertActionLocalizationKey = alertActionLocalizationKey
            info.alertLaunchImage = alertLaunchImage
            return info
        }

        convenience init(wire: StratusModel.NotificationInfo) {
            self.init()
            alertBody = wire.alertBody
            alertLocalizationKey = wire.alertLocalizationKey
            alertLocalizationArgs = wire.alertLocalizationArgs
            alertActionLocalizationKey = wire.alertActionLocalizationKey
            alertLaunchImage = wire.alertLaunchImage
            soundName = wire.soundName
            shouldBadge = wire.shouldBadge ?? false
            shouldSendContentAvailable = wire.shouldSendContentAvailable ?? false
        }
    }

    public let subscriptionID: ID
    public let subscriptionType: SubscriptionType
    open var notificationInfo: NotificationInfo?

    init(subscriptionID: ID, type: SubscriptionType) {
        self.subscriptionID = subscriptionID
        self.subscriptionType = type
    }

    /// The wire dictionary (subclasses add their parts).
    func wire() throws(CKError) -> Subscription {
        var subscription = Subscription(subscriptionID: subscriptionID, kind: .database)
        subscription.notificationInfo = notificationInfo?.wire
        return subscription
    }

    /// A subscription the server sent, as its subclass.
    static func from(wire: Subscription) -> CKSubscription {
        let subscription: CKSubscription
        switch wire.kind {
        case .zone?:
            subscription = CKRecordZoneSubscription(
                zoneID: CKRecordZone.ID.resolving(wire.zoneID, in: .default), subscriptionID: wire.subscriptionID
            )
        case .query?:
            var options: CKQuerySubscription.Options = []
            let triggers = wire.triggers ?? Set(Subscription.Trigger.allCases)
            if triggers.contains(.create) { options.insert(.firesOnRecordCreation) }
            if triggers.contains(.update) { options.insert(.firesOnRecordUpdate) }
            if triggers.contains(.delete) { options.insert(.firesOnRecordDeletion) }
            if wire.firesOnce == true { options.insert(.firesOnce) }
            // The predicate is not rebuilt from the wire query (it is kept and sent back as it came).
            let querySubscription = CKQuerySubscription(
                recordType: wire.query?.recordType ?? "", predicate: NSPredicate(value: true), subscriptionID: wire.subscriptionID, options: options
            )
            querySubscription.zoneID = wire.zoneID.map { CKRecordZone.ID.resolving($0, in: .default) }
            querySubscription.storedQuery = wire.query
            subscription = querySubscription
        default:
            subscription = CKDatabaseSubscription(subscriptionID: wire.subscriptionID)
        }
        subscription.notificationInfo = wire.notificationInfo.map(NotificationInfo.init(wire:))
        return subscription
    }

    public class var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(subscriptionID as NSString, forKey: "subscriptionID")
        coder.encode(Int64(subscriptionType.rawValue), forKey: "subscriptionType")
    }

    public required init?(coder: NSCoder) {
        guard let id = coder.decodeObject(of: NSString.self, forKey: "subscriptionID"),
            let type = SubscriptionType(rawValue: Int(coder.decodeInt64(forKey: "subscriptionType")))
        else { return nil }
        self.subscriptionID = id as String
        self.subscriptionType = type
    }
}

/// Notifies of every change in the private or shared database (what CKSyncEngine saves).
open class CKDatabaseSubscription: CKSubscription, @unchecked Sendable {
    open var recordType: CKRecord.RecordType?

    public init(subscriptionID: CKSubscription.ID) {
        super.init(subscriptionID: subscriptionID, type: .database)
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// Notifies of every change in one custom zone of the private database.
open class CKRecordZoneSubscription: CKSubscription, @unchecked Sendable {
    public let zoneID: CKRecordZone.ID
    open var recordType: CKRecord.RecordType?

    public init(zoneID: CKRecordZone.ID, subscriptionID: CKSubscription.ID) {
        self.zoneID = zoneID
        super.init(subscriptionID: subscriptionID, type: .recordZone)
    }

    public convenience init(zoneID: CKRecordZone.ID) {
        self.init(zoneID: zoneID, subscriptionID: UUID().uuidString)
    }

    override func wire() throws(CKError) -> Subscription {
        var subscription = try super.wire()
        subscription.subscriptionType = Subscription.Kind.zone.rawValue
        subscription.zoneID = zoneID.wire
        return subscription
    }

    public required init?(coder: NSCoder) {
        guard let zoneID = coder.decodeObject(of: CKRecordZone.ID.self, forKey: "zoneID") else { return nil }
        self.zoneID = zoneID
        super.init(coder: coder)
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(zoneID, forKey: "zoneID")
    }
}

/// Notifies when records matching a query are created, updated or deleted.
open class CKQuerySubscription: CKSubscription, @unchecked Sendable {
    /// Which changes fire a query subscription.
    public struct Options: OptionSet, Sendable, Hashable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let firesOnRecordCreation = Options(rawValue: 1 << 0)
        public static let firesOnRecordUpdate = Options(rawValue: 1 << 1)
        public static let firesOnRecordDeletion = Options(rawValue: 1 << 2)
        public static let firesOnce = Options(rawValue: 1 << 3)
    }

    public let recordType: CKRecord.RecordType
    public let predicate: NSPredicate
    public let querySubscriptionOptions: Options
    open var zoneID: CKRecordZone.ID?
    /// The query as the server sent it (a fetched subscription's predicate is not rebuilt).
    var storedQuery: Query?

    public init(recordType: CKRecord.RecordType, predicate: NSPredicate, subscriptionID: CKSubscription.ID, options: Options = [
        .firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion,
    ]) {
        self.recordType = recordType
        self.predicate = predicate
        self.querySubscriptionOptions = options
        super.init(subscriptionID: subscriptionID, type: .query)
    }

    public convenience init(recordType: CKRecord.RecordType, predicate: NSPredicate, options: Options) {
        self.init(recordType: recordType, predicate: predicate, subscriptionID: UUID().uuidString, options: options)
    }

    override func wire() throws(CKError) -> Subscription {
        var subscription = try super.wire()
        subscription.subscriptionType = Subscription.Kind.query.rawValue
        if let storedQuery {
            subscription.query = storedQuery
        } else {
            subscription.query = try CKQuery(recordType: recordType, predicate: predicate).wire().query
        }
        subscription.zoneID = zoneID?.wire
        var fires: [String] = []
        if querySubscriptionOptions.contains(.firesOnRecordCreation) { fires.append(Subscription.Trigger.create.rawValue) }
        if querySubscriptionOptions.contains(.firesOnRecordUpdate) { fires.append(Subscription.Trigger.update.rawValue) }
        if querySubscriptionOptions.contains(.firesOnRecordDeletion) { fires.append(Subscription.Trigger.delete.rawValue) }
        subscription.firesOn = fires
        subscription.firesOnce = querySubscriptionOptions.contains(.firesOnce) ? true : nil
        return subscription
    }

    public required init?(coder: NSCoder) { nil }
}
