import StratusModel
import StratusStore
import StratusStoreSQLite
import Testing

@testable import StratusCore

/// Public subscriptions notify only the subscribers the schema's security roles let read the
/// changed record: READ to `_creator` alone keeps others' records from them.
@Suite struct PublicNotificationRolesTests {
    static let container = "iCloud.test"
    static let alice = "_alice"
    static let bob = "_bob"
    static let zone = ZoneKey(
        database: DatabaseKey(container: container, environment: .development, scope: .public, owner: DatabaseKey.publicOwner),
        name: ZoneID.defaultZoneName
    )
    static let schema = """
        DEFINE SCHEMA
            RECORD TYPE Diary ( entry STRING, GRANT READ, WRITE TO "_creator", GRANT CREATE TO "_icloud" );
            RECORD TYPE Trip ( title STRING, GRANT WRITE TO "_creator", GRANT CREATE TO "_icloud", GRANT READ TO "_world" );
        """

    static func change(_ name: String, type: String, by creator: String) -> RecordChange {
        RecordChange(name: name, type: type, fields: [:], kind: .created, created: RecordStamp(timestamp: 1, userRecordName: creator))
    }

    /// A fresh store holding ``schema`` in development, and a planner over it.
    static func plannerWithSchema() async throws -> (SQLiteStore, NotificationPlanner) {
        let store = try SQLiteStore()
        try await store.migrate()
        let document = try SchemaParser.parse(schema)
        try await store.replaceSchema(SchemaImportPlan.replacement(document, container: container, environment: .development))
        let planner = NotificationPlanner(
            store: store, subscriptions: SubscriptionCache(store: store, relay: InstanceRelay(signals: nil)), schema: SchemaCache(store: store)
        )
        return (store, planner)
    }

    @Test func aPublicSubscriptionFiresOnlyForWhatItsSubscriberMayRead() async throws {
        let (store, planner) = try await Self.plannerWithSchema()
        for user in [Self.alice, Self.bob] {
            let subscriber = SubscriberKey(container: Self.container, environment: .development, scope: .public, user: user)
            let zoneFeed = Subscription(subscriptionID: "zone-\(user)", kind: .zone)
            let diaries = Subscription(subscriptionID: "diary-\(user)", kind: .query, query: Query(recordType: "Diary"))
            _ = try await store.modifySubscriptions([.create(zoneFeed), .create(diaries)], of: subscriber)
        }
        func recipients(_ changes: [RecordChange]) async throws -> [String] {
            let event = CommitEvent(zone: Self.zone, author: Self.alice, originDevice: nil, previousSeq: 0, changes: changes)
            return try await planner.plan(event, now: 5_000).notifications.map { "\($0.recipient) \($0.notification.subscriptionID ?? "")" }.sorted()
        }
        #expect(try await recipients([Self.change("d1", type: "Diary", by: Self.alice)]) == ["_alice diary-_alice", "_alice zone-_alice"])
        #expect(try await recipients([Self.change("t1", type: "Trip", by: Self.alice)]) == ["_alice zone-_alice", "_bob zone-_bob"])
        // A zone notification goes to whoever may read any record the change touched.
        let both = try await recipients([Self.change("d2", type: "Diary", by: Self.bob), Self.change("t2", type: "Trip", by: Self.alice)])
        #expect(both == ["_alice zone-_alice", "_bob diary-_bob", "_bob zone-_bob"])
    }

    @Test func aZoneSubscriptionOfOneTypeFiresOnlyForRecordsOfThatTypeItsSubscriberMayRead() async throws {
        let (store, planner) = try await Self.plannerWithSchema()
        let subscriber = SubscriberKey(container: Self.container, environment: .development, scope: .public, user: Self.bob)
        var diaries = Subscription(subscriptionID: "diaries", kind: .zone)
        diaries.recordType = "Diary"
        _ = try await store.modifySubscriptions([.create(diaries)], of: subscriber)
        // Alice's diary (bob may not read it) and a trip (he may, but it is not a diary): a
        // notification would tell bob that a diary he cannot read changed.
        let event = CommitEvent(
            zone: Self.zone, author: Self.alice, originDevice: nil, previousSeq: 0,
            changes: [Self.change("d1", type: "Diary", by: Self.alice), Self.change("t1", type: "Trip", by: Self.alice)]
        )
        #expect(try await planner.plan(event, now: 5_000).notifications.isEmpty)
        // His own diary he may read: it fires.
        let own = CommitEvent(zone: Self.zone, author: Self.bob, originDevice: nil, previousSeq: 0, changes: [Self.change("d2", type: "Diary", by: Self.bob)])
        #expect(try await planner.plan(own, now: 5_000).notifications.map(\.recipient) == [Self.bob])
    }
}
