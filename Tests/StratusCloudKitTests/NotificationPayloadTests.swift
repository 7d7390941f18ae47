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

    @Test func aPayloadThatIsNotCloudKitsIsNoNotification() {
        #expect(CKNotification(fromRemoteNotificationDictionary: ["aps": ["alert": "hi"]]) == nil)
        #expect(CKQueryNotification(fromRemoteNotificationDictionary: ["ck": ["cid": "c", "nid": "n", "met": ["dbs": 2]]]) == nil)
    }
}
