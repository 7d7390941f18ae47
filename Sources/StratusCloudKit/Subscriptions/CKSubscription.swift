import Foundation
import StratusModel

/// A subscription: what the server notifies the account's devices of. Use a subclass —
/// ``CKDatabaseSubscription``, ``CKRecordZoneSubscription`` or ``CKQuerySubscription``.
/// `@unchecked Sendable` as Apple declares it: its mutable properties are set before saving.
open class CKSubscription: NSObject, NSSecureCoding, NSCopying, @unchecked Sendable {
    public typealias ID = String

    /// What kind of subscription.
    public enum SubscriptionType: Int, Sendable, Hashable {
        case query = 1
        case recordZone = 2
        case database = 3
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
            let zone = CKRecordZoneSubscription(zoneID: CKRecordZone.ID.resolving(wire.zoneID, in: .default), subscriptionID: wire.subscriptionID)
            zone.recordType = wire.recordType
            subscription = zone
        case .query?:
            var options: CKQuerySubscription.Options = []
            let triggers = wire.triggers ?? Set(Subscription.Trigger.allCases)
            if triggers.contains(.create) { options.insert(.firesOnRecordCreation) }
            if triggers.contains(.update) { options.insert(.firesOnRecordUpdate) }
            if triggers.contains(.delete) { options.insert(.firesOnRecordDeletion) }
            if wire.firesOnce == true { options.insert(.firesOnce) }
            let query = wire.query ?? Query(recordType: "")
            let querySubscription = CKQuerySubscription(
                recordType: query.recordType, predicate: PredicateRegistry.predicate(for: query.filterBy ?? []),
                subscriptionID: wire.subscriptionID, options: options
            )
            querySubscription.zoneID = wire.zoneWide == true ? nil : wire.zoneID.map { CKRecordZone.ID.resolving($0, in: .default) }
            subscription = querySubscription
        default:
            let database = CKDatabaseSubscription(subscriptionID: wire.subscriptionID)
            database.recordType = wire.recordType
            subscription = database
        }
        subscription.notificationInfo = wire.notificationInfo.map(NotificationInfo.init(wire:))
        return subscription
    }

    open override var description: String { "<\(type(of: self)): \(subscriptionID)>" }

    /// Subscriptions are equal by value, as Apple's: the same class, ID, type, query (its
    /// filters), options, zone, record type and notification info — so one restored from an
    /// archive, or a copy, is equal to the original. One whose predicate CloudKit refuses is
    /// equal only to itself.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CKSubscription else { return false }
        if other === self { return true }
        guard type(of: other) == type(of: self), other.subscriptionID == subscriptionID, other.subscriptionType == subscriptionType,
            let mine = try? wire(), let theirs = try? other.wire()
        else { return false }
        return mine == theirs
    }

    /// The ID and type: equal subscriptions share them.
    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(subscriptionID)
        hasher.combine(subscriptionType)
        return hasher.finalize()
    }

    open func copy(with zone: NSZone? = nil) -> Any {
        // A copy is the same subscription: archive and restore it (every subclass codes all it holds).
        guard let data = try? NSKeyedArchiver.archivedData(withRootObject: self, requiringSecureCoding: true),
            let copy = try? NSKeyedUnarchiver.unarchivedObject(ofClass: CKSubscription.self, from: data)
        else { return self }
        return copy
    }

    // MARK: - Coding

    public class var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(subscriptionID as NSString, forKey: "SubscriptionID")
        coder.encode(Int64(subscriptionType.rawValue), forKey: "SubscriptionType")
        if let notificationInfo { coder.encode(notificationInfo, forKey: "NotificationInfo") }
    }

    public required init?(coder: NSCoder) {
        // Apple's keys first, then those of Stratus's first archives.
        let id = coder.string("SubscriptionID", "subscriptionID")
        let rawType = coder.containsValue(forKey: "SubscriptionType") ? coder.decodeInt64(forKey: "SubscriptionType") : coder.decodeInt64(forKey: "subscriptionType")
        guard let id, let type = SubscriptionType(rawValue: Int(rawType)) else { return nil }
        self.subscriptionID = id
        self.subscriptionType = type
        super.init()
        notificationInfo = coder.object(NotificationInfo.self, "NotificationInfo")
    }
}

/// Notifies of every change in the private or shared database (what CKSyncEngine saves), or
/// only of changes to records of ``recordType``.
// `@unchecked Sendable` as its superclass: `recordType` is set before the subscription is saved.
open class CKDatabaseSubscription: CKSubscription, @unchecked Sendable {
    open var recordType: CKRecord.RecordType?

    public init(subscriptionID: CKSubscription.ID) {
        super.init(subscriptionID: subscriptionID, type: .database)
    }

    @available(*, deprecated, message: "Provide an explicit CKSubscription.ID: init(subscriptionID:)")
    public convenience init() {
        self.init(subscriptionID: UUID().uuidString)
    }

    override func wire() throws(CKError) -> Subscription {
        var subscription = try super.wire()
        subscription.recordType = recordType
        return subscription
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        if let recordType { coder.encode(recordType as NSString, forKey: "RecordType") }
    }

    public required init?(coder: NSCoder) {
        super.init(coder: coder)
        recordType = coder.string("RecordType")
    }
}

/// Notifies of every change in one custom zone of the private database, or only of changes to
/// records of ``recordType``.
// `@unchecked Sendable` as its superclass: `recordType` is set before the subscription is saved.
open class CKRecordZoneSubscription: CKSubscription, @unchecked Sendable {
    public let zoneID: CKRecordZone.ID
    open var recordType: CKRecord.RecordType?

    public init(zoneID: CKRecordZone.ID, subscriptionID: CKSubscription.ID) {
        self.zoneID = zoneID
        super.init(subscriptionID: subscriptionID, type: .recordZone)
    }

    @available(*, deprecated, message: "Use init(zoneID:subscriptionID:)")
    public convenience init(zoneID: CKRecordZone.ID) {
        self.init(zoneID: zoneID, subscriptionID: UUID().uuidString)
    }

    override func wire() throws(CKError) -> Subscription {
        var subscription = try super.wire()
        subscription.subscriptionType = Subscription.Kind.zone.rawValue
        subscription.zoneID = zoneID.wire
        subscription.recordType = recordType
        return subscription
    }

    public required init?(coder: NSCoder) {
        guard let zoneID = coder.object(CKRecordZone.ID.self, "ZoneID") ?? coder.object(CKRecordZone.ID.self, "zoneID")
        else { return nil }
        self.zoneID = zoneID
        super.init(coder: coder)
        recordType = coder.string("RecordType")
    }

    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(zoneID, forKey: "ZoneID")
        if let recordType { coder.encode(recordType as NSString, forKey: "RecordType") }
    }
}
