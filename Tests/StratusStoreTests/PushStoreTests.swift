import Foundation
import StratusModel
import StratusStore
import Testing

/// The push store's contract on every back end (``StoreKind/backEnds``).
@Suite("push store: notification feeds")
struct PushStoreTests {
    private func notification(_ recipient: String, device: String? = nil) -> NewNotification {
        NewNotification(
            container: "iCloud.test", environment: .development, recipient: recipient, originDevice: device,
            notification: PushNotification(
                notificationID: "", notificationType: .database, subscriptionID: "db", containerIdentifier: "iCloud.test",
                databaseScope: .private
            )
        )
    }

    private func token(_ user: String, device: String?, start: Int64 = 0) -> StoredPushToken {
        StoredPushToken(
            token: UUID().uuidString, container: "iCloud.test", environment: .development, apnsEnvironment: "development",
            user: user, deviceID: device, startID: start
        )
    }

    @Test("a feed keeps its newest notifications; a reader behind them learns it was pruned", arguments: StoreKind.backEnds)
    func retentionByCount(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let retention = NotificationRetention(perRecipient: 10, age: .max / 2)
            let last = try await store.appendNotifications((0..<15).map { _ in notification("_alice") }, retention: retention, now: 1_000)
            _ = try await store.appendNotifications([notification("_bob")], retention: retention, now: 1_000)
            let page = try await store.notifications(for: token("_alice", device: nil), after: 0, limit: 100)
            #expect(page.entries.count == 10)
            #expect(page.entries.first?.id == last - 9)
            #expect(page.prunedThrough == last - 10)
            #expect(page.entries.map(\.notification.notificationID) == page.entries.map { String($0.id) })
            // bob's feed is his own: untouched by alice's trimming.
            let bobs = try await store.notifications(for: token("_bob", device: nil), after: 0, limit: 100)
            #expect(bobs.entries.count == 1)
            #expect(bobs.prunedThrough == 0)
        }
    }

    @Test("notifications older than the retention age go; younger ones stay", arguments: StoreKind.backEnds)
    func retentionByAge(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let retention = NotificationRetention(perRecipient: 1_000, age: 500)
            let old = try await store.appendNotifications([notification("_alice")], retention: retention, now: 1_000)
            _ = try await store.appendNotifications([notification("_alice")], retention: retention, now: 2_000)
            let page = try await store.notifications(for: token("_alice", device: nil), after: 0, limit: 100)
            #expect(page.entries.count == 1)
            #expect(page.prunedThrough == old)
        }
    }

    @Test("a token never reads what its own device caused; its sibling does", arguments: StoreKind.backEnds)
    func originDeviceIsExcluded(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.appendNotifications(
                [notification("_alice", device: "iphone"), notification("_alice", device: "ipad"), notification("_alice")],
                retention: NotificationRetention(), now: 1
            )
            let iphone = try await store.notifications(for: token("_alice", device: "iphone"), after: 0, limit: 100)
            let ipad = try await store.notifications(for: token("_alice", device: "ipad"), after: 0, limit: 100)
            let anonymous = try await store.notifications(for: token("_alice", device: nil), after: 0, limit: 100)
            #expect(iphone.entries.count == 2)
            #expect(ipad.entries.count == 2)
            #expect(anonymous.entries.count == 3)
            #expect(try await store.lastNotificationPosition() == 3)
        }
    }

    @Test("subscriptions: create refuses a taken ID, update needs one, delete answers the old one; all per subscriber", arguments: StoreKind.backEnds)
    func subscriptionChanges(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let alice = SubscriberKey(container: "iCloud.test", environment: .development, scope: .private, user: "_alice")
            let bob = SubscriberKey(container: "iCloud.test", environment: .development, scope: .private, user: "_bob")
            let database = Subscription(subscriptionID: "db", kind: .database)
            let outcomes = try await store.modifySubscriptions(
                [.create(database), .create(database), .update(Subscription(subscriptionID: "nope", kind: .database)), .delete(subscriptionID: "db")],
                of: alice
            )
            #expect(outcomes == [.saved(database), .exists, .notFound, .deleted(database)])
            _ = try await store.modifySubscriptions([.create(database)], of: bob)
            #expect(try await store.subscriptions(of: alice).isEmpty)
            let found = try await store.subscriptions(container: "iCloud.test", environment: .development, scope: .private, users: ["_alice", "_bob"])
            #expect(found.map(\.subscriber.user) == ["_bob"])
        }
    }
}
