import Foundation
import StratusModel

/// Notifies when records matching a query are created, updated or deleted — in ``zoneID``, or
/// in every zone of the database when it names none.
// `@unchecked Sendable` as its superclass: `zoneID` is set before the subscription is saved.
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

    /// The type of the records the query matches (optional, as Apple declares it).
    public let recordType: CKRecord.RecordType?
    public let predicate: NSPredicate
    public let querySubscriptionOptions: Options
    /// The zone whose records fire the subscription; `nil`: every zone of the database.
    open var zoneID: CKRecordZone.ID?

    public init(
        recordType: CKRecord.RecordType, predicate: NSPredicate, subscriptionID: CKSubscription.ID,
        options: Options = [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion]
    ) {
        self.recordType = recordType
        self.predicate = predicate
        self.querySubscriptionOptions = options
        super.init(subscriptionID: subscriptionID, type: .query)
    }

    @available(*, deprecated, message: "Use init(recordType:predicate:subscriptionID:options:)")
    public convenience init(
        recordType: CKRecord.RecordType, predicate: NSPredicate, options: Options = [.firesOnRecordCreation, .firesOnRecordUpdate, .firesOnRecordDeletion]
    ) {
        self.init(recordType: recordType, predicate: predicate, subscriptionID: UUID().uuidString, options: options)
    }

    override func wire() throws(CKError) -> Subscription {
        var subscription = try super.wire()
        subscription.subscriptionType = Subscription.Kind.query.rawValue
        subscription.query = try CKQuery(recordType: recordType ?? "", predicate: predicate).wire().query
        if let zoneID { subscription.zoneID = zoneID.wire } else { subscription.zoneWide = true }
        var fires: [String] = []
        if querySubscriptionOptions.contains(.firesOnRecordCreation) { fires.append(Subscription.Trigger.create.rawValue) }
        if querySubscriptionOptions.contains(.firesOnRecordUpdate) { fires.append(Subscription.Trigger.update.rawValue) }
        if querySubscriptionOptions.contains(.firesOnRecordDeletion) { fires.append(Subscription.Trigger.delete.rawValue) }
        subscription.firesOn = fires
        subscription.firesOnce = querySubscriptionOptions.contains(.firesOnce) ? true : nil
        return subscription
    }

    // MARK: - Coding

    /// Archives the query as ``CKQuery`` does (its filters), the options and the zone.
    public override func encode(with coder: NSCoder) {
        super.encode(with: coder)
        coder.encode(CKQuery(recordType: recordType ?? "", predicate: predicate), forKey: "Query")
        coder.encode(Int64(querySubscriptionOptions.rawValue), forKey: "QuerySubscriptionOptions")
        if let zoneID { coder.encode(zoneID, forKey: "ZoneID") }
    }

    public required init?(coder: NSCoder) {
        guard let query = coder.object(CKQuery.self, "Query") else { return nil }
        recordType = query.recordType.isEmpty ? nil : query.recordType
        predicate = query.predicate
        querySubscriptionOptions = Options(rawValue: UInt(clamping: coder.decodeInt64(forKey: "QuerySubscriptionOptions")))
        super.init(coder: coder)
        zoneID = coder.object(CKRecordZone.ID.self, "ZoneID")
    }
}
