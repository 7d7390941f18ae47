import Foundation
import StratusModel
import Testing

@testable import StratusCloudKit

/// `CKNotification(fromRemoteNotificationDictionary:)` reads the payloads a Stratus courier
/// serves with `?format=apns` (`ApplePushPayload`, as the server writes them) into the subclass
/// each names, with the alert the subscription asked for.
@Suite struct NotificationPayloadTests {
    static func dictionary(_ notification: PushNotification) throws -> [AnyHashable: Any] {
        let data = try JSONEncoder().encode(ApplePushPayload(notification))
        return try JSONSerialization.jsonObject(with: data) as? [AnyHashable: Any] ?? [:]
    }

    static func notification(_ type: PushNotification.Kind, scope: DatabaseScope) -> PushNotification {
        var info = StratusModel.NotificationInfo(alertBody: "Changed")
        info.alertLocalizationKey = "CHANGED"
        info.title = "Trips"
        info.category = "TRIP"
        return PushNotification(
            notificationID: "n-1", notificationType: type, subscriptionID: "s-1", containerIdentifier: "iCloud.com.example.App",
            environment: .development, databaseScope: scope, notificationInfo: info, timestamp: 0
        )
    }

    @Test func aDatabasePayloadIsADatabaseNotification() throws {
        let payload = try Self.dictionary(Self.notification(.database, scope: .shared))
        let notification = try #require(CKNotification(fromRemoteNotificationDictionary: payload) as? CKDatabaseNotification)
        #expect(notification.notificationType == .database && notification.databaseScope == .shared)
        #expect(notification.subscriptionID == "s-1" && notification.containerIdentifier == "iCloud.com.example.App")
        #expect(notification.alertBody == "Changed" && notification.alertLocalizationKey == "CHANGED" && !notification.isPruned)
        #expect(notification.title == "Trips" && notification.category == "TRIP")
    }

    @Test func aZonePayloadNamesItsZoneAsTheDatabaseNamesIt() throws {
        var own = Self.notification(.recordZone, scope: .private)
        own.zoneID = ZoneID(zoneName: "Trips", ownerRecordName: "_alice")
        let mine = try #require(CKNotification(fromRemoteNotificationDictionary: try Self.dictionary(own)) as? CKRecordZoneNotification)
        #expect(mine.recordZoneID == CKRecordZone.ID(zoneName: "Trips"))
        var shared = own
        shared.databaseScope = .shared
        let theirs = try #require(CKNotification(fromRemoteNotificationDictionary: try Self.dictionary(shared)) as? CKRecordZoneNotification)
        #expect(theirs.recordZoneID == CKRecordZone.ID(zoneName: "Trips", ownerName: "_alice"))
    }

    @Test func aQueryPayloadNamesItsRecordAndReason() throws {
        var query = Self.notification(.query, scope: .public)
        query.zoneID = ZoneID(zoneName: "_defaultZone")
        query.recordName = "r1"
        query.queryNotificationReason = .recordDeleted
        let notification = try #require(CKNotification(fromRemoteNotificationDictionary: try Self.dictionary(query)) as? CKQueryNotification)
        #expect(notification.recordID == CKRecord.ID(recordName: "r1") && notification.queryNotificationReason == .recordDeleted)
        #expect(notification.databaseScope == .public && notification.notificationType == .query)
    }

    /// A query notification of `trip`'s update, with the desired keys' values in every type
    /// CloudKit puts in a notification.
    static func queryWithFields() -> PushNotification {
        var query = Self.notification(.query, scope: .private)
        query.zoneID = ZoneID(zoneName: "Trips", ownerRecordName: "_alice")
        query.recordName = "lisbon"
        query.queryNotificationReason = .recordUpdated
        query.subscriptionOwnerUserRecordName = "_alice"
        query.recordFields = [
            "title": .string("Lisbon"), "nights": .int64(3), "rating": .double(4.5),
            "when": .timestamp(milliseconds: 1_767_225_600_000),
            "place": StratusModel.Field(.location(StratusModel.Location(latitude: 38.7, longitude: -9.1))),
            "trip": StratusModel.Field(.reference(StratusModel.Reference(recordName: "summer", action: .deleteSelf))),
        ]
        return query
    }

    /// `recordFields` holds the values as a record does.
    static func expectTypedFields(_ notification: CKQueryNotification, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let fields = try #require(notification.recordFields, sourceLocation: sourceLocation)
        #expect(fields.count == 6, "\(fields)", sourceLocation: sourceLocation)
        #expect(fields["title"] as? String == "Lisbon", sourceLocation: sourceLocation)
        #expect((fields["nights"] as? NSNumber)?.int64Value == 3, sourceLocation: sourceLocation)
        #expect((fields["rating"] as? NSNumber)?.doubleValue == 4.5, sourceLocation: sourceLocation)
        #expect(fields["when"] as? Date == Date(timeIntervalSince1970: 1_767_225_600), sourceLocation: sourceLocation)
        let place = try #require(fields["place"] as? CLLocation, sourceLocation: sourceLocation)
        #expect(place.coordinate.latitude == 38.7 && place.coordinate.longitude == -9.1, sourceLocation: sourceLocation)
        let trip = try #require(fields["trip"] as? CKRecord.Reference, sourceLocation: sourceLocation)
        #expect(trip.recordID == CKRecord.ID(recordName: "summer", zoneID: CKRecordZone.ID(zoneName: "Trips")), sourceLocation: sourceLocation)
        #expect(trip.action == .deleteSelf, sourceLocation: sourceLocation)
    }

    @Test func aQueryPayloadCarriesTheDesiredKeysAsRecordValuesAndTheSubscriptionsOwner() throws {
        let payload = try Self.dictionary(Self.queryWithFields())
        let notification = try #require(CKNotification(fromRemoteNotificationDictionary: payload) as? CKQueryNotification)
        try Self.expectTypedFields(notification)
        #expect(notification.recordID == CKRecord.ID(recordName: "lisbon", zoneID: CKRecordZone.ID(zoneName: "Trips")))
        #expect(notification.subscriptionOwnerUserRecordID == CKRecord.ID(recordName: "_alice"))
        #expect(!notification.isPruned)
    }

    @Test func aPayloadAsAppleWritesItReadsBareStringsAndNumbers() throws {
        let payload: [AnyHashable: Any] = [
            "aps": ["content-available": 1],
            "ck": [
                "cid": "iCloud.com.example.App", "nid": "n-2", "ckuserid": "_bob",
                "qry": ["dbs": 1, "sid": "s", "rid": "r", "fo": 1, "zid": "_defaultZone", "af": ["title": "Faro", "nights": 2]],
            ],
        ]
        let notification = try #require(CKQueryNotification(fromRemoteNotificationDictionary: payload))
        #expect(notification.recordFields?["title"] as? String == "Faro")
        #expect((notification.recordFields?["nights"] as? NSNumber)?.intValue == 2)
        #expect(notification.subscriptionOwnerUserRecordID?.recordName == "_bob")
    }

    @Test func aFeedEntryReadsAsItsPayloadWithEveryField() throws {
        let entry = try JSONSerialization.jsonObject(with: JSONEncoder().encode(Self.queryWithFields())) as? [AnyHashable: Any] ?? [:]
        let notification = try #require(CKNotification(fromRemoteNotificationDictionary: entry) as? CKQueryNotification)
        try Self.expectTypedFields(notification)
        #expect(notification.queryNotificationReason == .recordUpdated && notification.subscriptionID == "s-1")
    }

    @Test func aPayloadOver4KBLeavesOutTheFieldsThatDoNotFitAndIsPruned() throws {
        var query = Self.queryWithFields()
        query.notificationInfo?.desiredKeys = ["title", "notes"]
        query.recordFields = ["title": .string("Lisbon"), "notes": .string(String(repeating: "x", count: 5_000))]
        let payload = try Self.dictionary(query)
        let notification = try #require(CKNotification(fromRemoteNotificationDictionary: payload) as? CKQueryNotification)
        #expect(notification.recordFields?.keys.sorted() == ["title"])
        #expect(notification.isPruned)
    }

    @Test func aPayloadThatIsNotCloudKitsIsNoNotification() {
        #expect(CKNotification(fromRemoteNotificationDictionary: ["aps": ["alert": "hi"]]) == nil)
        #expect(CKQueryNotification(fromRemoteNotificationDictionary: ["ck": ["cid": "c", "nid": "n", "met": ["dbs": 2]]]) == nil)
    }
}
