import CloudKit
import Foundation
import Testing

/// Subscriptions compare by value, as Apple's: one restored from an archive (what an app keeps
/// to know which subscriptions it saved) is `==` the one archived and hashes the same; another
/// predicate, options, zone or notification makes another subscription.
@Suite struct SubscriptionEqualityTests {
    @Test func anArchivedQuerySubscriptionEqualsTheOneItWasArchivedFrom() throws {
        let subscription = Self.longTrips(over: 3)
        let data = try NSKeyedArchiver.archivedData(withRootObject: subscription, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKQuerySubscription.self, from: data))

        #expect(restored == subscription)
        #expect(restored.isEqual(subscription))
        #expect(restored.hash == subscription.hash)
        #expect(Set([subscription, restored]).count == 1)
        let copy = try #require(subscription.copy() as? CKQuerySubscription)
        #expect(copy == subscription)
        let saved: [CKSubscription] = [restored]
        #expect(saved.contains(subscription))
    }

    @Test func anotherPredicateOptionOrNotificationIsAnotherSubscription() {
        let subscription = Self.longTrips(over: 3)
        #expect(Self.longTrips(over: 3) == subscription, "made alike: equal")
        #expect(Self.longTrips(over: 4) != subscription, "another predicate")

        let creationsOnly = CKQuerySubscription(
            recordType: "Trip", predicate: NSPredicate(format: "nights > %d", 3), subscriptionID: "long-trips", options: [.firesOnRecordCreation]
        )
        creationsOnly.zoneID = subscription.zoneID
        creationsOnly.notificationInfo = subscription.notificationInfo
        #expect(creationsOnly != subscription, "other options")

        let elsewhere = Self.longTrips(over: 3)
        elsewhere.zoneID = CKRecordZone.ID(zoneName: "Elsewhere")
        #expect(elsewhere != subscription, "another zone")

        let silent = Self.longTrips(over: 3)
        let info = CKSubscription.NotificationInfo()
        info.shouldSendContentAvailable = true
        silent.notificationInfo = info
        #expect(silent != subscription, "another notification")

        let zoneSubscription = CKRecordZoneSubscription(zoneID: CKRecordZone.ID(zoneName: "Trips"), subscriptionID: "long-trips")
        #expect(!zoneSubscription.isEqual(subscription), "another kind")
    }

    /// A query subscription for trips of more than `nights` nights in the Trips zone, with an alert.
    static func longTrips(over nights: Int) -> CKQuerySubscription {
        let subscription = CKQuerySubscription(
            recordType: "Trip", predicate: NSPredicate(format: "nights > %d", nights), subscriptionID: "long-trips",
            options: [.firesOnRecordCreation, .firesOnRecordUpdate]
        )
        subscription.zoneID = CKRecordZone.ID(zoneName: "Trips")
        let info = CKSubscription.NotificationInfo()
        info.alertBody = "A long trip"
        info.shouldBadge = true
        subscription.notificationInfo = info
        return subscription
    }
}
