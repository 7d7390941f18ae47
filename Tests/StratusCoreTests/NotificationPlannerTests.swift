import Foundation
import StratusModel
import StratusStore
import StratusStoreSQLite
import Testing

@testable import StratusCore

/// Which subscriptions a committed change fires and what each notification says, with no server:
/// the planner over an in-memory store holding the subscriptions and, for shared databases, a
/// share bob accepted. Database and zone subscriptions fire once per commit, a query subscription
/// once per matching record (the first only when it fires once), and a participant's shared
/// database only for what their share shows them.
@Suite struct NotificationPlannerTests {
    static let container = "iCloud.test"
    static let alice = "_alice"
    static let bob = "_bob"
    static let carol = "_carol"
    static let privateDB = DatabaseKey(container: container, environment: .development, scope: .private, owner: alice)
    static let zone = ZoneKey(database: privateDB, name: "Z")

    /// A store with alice's zone `Z` and the planner reading it.
    private struct Fixture {
        let store: SQLiteStore
        let planner: NotificationPlanner

        init() async throws {
            store = try SQLiteStore()
            try await store.migrate()
            _ = try await store.createZone(NotificationPlannerTests.zone, atomic: true)
            planner = NotificationPlanner(store: store, subscriptions: SubscriptionCache(store: store, relay: InstanceRelay(signals: nil)))
        }

        func subscribe(_ user: String, scope: DatabaseScope = .private, _ subscription: Subscription) async throws {
            let subscriber = SubscriberKey(container: container, environment: .development, scope: scope, user: user)
            #expect(try await store.modifySubscriptions([.create(subscription)], of: subscriber) == [.saved(subscription)])
        }

        func plan(_ event: CommitEvent) async throws -> (notifications: [NewNotification], fired: [StoredSubscription]) {
            try await planner.plan(event, now: 5_000)
        }
    }

    private static func change(_ name: String, _ kind: RecordChange.Kind = .created, type: String = "Note", title: String = "x") -> RecordChange {
        RecordChange(name: name, type: type, fields: ["title": .string(title)], kind: kind)
    }

    private static func event(_ changes: [RecordChange], zone: ZoneKey = zone, author: String = alice, device: String? = "phone", previousSeq: Int64 = 0) -> CommitEvent {
        CommitEvent(zone: zone, author: author, originDevice: device, previousSeq: previousSeq, changes: changes)
    }

    @Test func databaseAndZoneSubscriptionsFireOncePerCommitAndNameTheirZoneAsCloudKitDoes() async throws {
        let fixture = try await Fixture()
        try await fixture.subscribe(Self.alice, Subscription(subscriptionID: "db", kind: .database))
        try await fixture.subscribe(Self.alice, Subscription(subscriptionID: "z", kind: .zone, zoneID: ZoneID(zoneName: "Z")))
        try await fixture.subscribe(Self.alice, Subscription(subscriptionID: "other", kind: .zone, zoneID: ZoneID(zoneName: "Y")))
        let planned = try await fixture.plan(Self.event([Self.change("a"), Self.change("b")]))
        let byID = Dictionary(grouping: planned.notifications) { $0.notification.subscriptionID ?? "" }
        #expect(byID.keys.sorted() == ["db", "z"])
        #expect(byID["db"]?.count == 1 && byID["db"]?.first?.notification.notificationType == .database)
        #expect(byID["db"]?.first?.notification.zoneID == nil, "a database notification names no zone")
        #expect(byID["z"]?.first?.notification.notificationType == .recordZone)
        #expect(byID["z"]?.first?.notification.zoneID == ZoneID(zoneName: "Z", ownerRecordName: Self.alice))
        #expect(planned.notifications.allSatisfy { $0.recipient == Self.alice && $0.notification.timestamp == 5_000 })
        #expect(planned.fired.isEmpty, "none fires once")
    }

    @Test func aSubscriptionNamingARecordTypeFiresOnlyForThatType() async throws {
        let fixture = try await Fixture()
        var photos = Subscription(subscriptionID: "photos", kind: .database)
        photos.recordType = "Photo"
        try await fixture.subscribe(Self.alice, photos)
        #expect(try await fixture.plan(Self.event([Self.change("a")])).notifications.isEmpty)
        #expect(try await fixture.plan(Self.event([Self.change("a"), Self.change("p", type: "Photo")])).notifications.count == 1)
    }

    @Test func aQuerySubscriptionFiresPerMatchingRecordWithItsReason() async throws {
        let fixture = try await Fixture()
        let query = Query(recordType: "Note", filterBy: [QueryFilter(.equals, field: "title", .string("hot"))])
        try await fixture.subscribe(Self.alice, Subscription(subscriptionID: "q", kind: .query, zoneID: ZoneID(zoneName: "Z"), query: query, firesOn: [.create, .delete]))
        let planned = try await fixture.plan(Self.event([
            Self.change("a", title: "hot"), Self.change("b", title: "cold"), Self.change("c", .updated, title: "hot"), Self.change("d", .deleted, title: "hot"),
        ]))
        let said = planned.notifications.map { ($0.notification.recordName ?? "", $0.notification.queryNotificationReason) }
        #expect(said.map(\.0) == ["a", "d"], "b does not match; c's update is not among firesOn")
        #expect(said.map(\.1) == [.recordCreated, .recordDeleted])
        #expect(planned.notifications.allSatisfy { $0.notification.notificationType == .query && $0.notification.zoneID?.zoneName == "Z" })
    }

    @Test func aQueryNotificationCarriesTheDesiredKeysOfTheRecordAfterTheChange() async throws {
        let fixture = try await Fixture()
        var info = NotificationInfo()
        info.desiredKeys = ["title", "photo", "when", "missing"]
        let subscription = Subscription(
            subscriptionID: "q", kind: .query, zoneID: ZoneID(zoneName: "Z"), query: Query(recordType: "Note"), notificationInfo: info
        )
        try await fixture.subscribe(Self.alice, subscription)
        var exact = Field.timestamp(milliseconds: 1_767_225_600_000)
        exact.exactDates = [788_918_400]
        let fields: [String: Field] = ["title": .string("Lisbon"), "body": .string("secret"), "photo": .bytes(Data([1])), "when": exact]
        let planned = try await fixture.plan(Self.event([
            RecordChange(name: "a", type: "Note", fields: fields, kind: .updated),
            RecordChange(name: "b", type: "Note", fields: fields, kind: .deleted),
        ]))
        let byRecord = Dictionary(uniqueKeysWithValues: planned.notifications.map { ($0.notification.recordName ?? "", $0.notification) })
        let expected: [String: Field] = ["title": .string("Lisbon"), "when": .timestamp(milliseconds: 1_767_225_600_000)]
        #expect(byRecord["a"]?.recordFields == expected, "no data, no undesired key, dates in milliseconds")
        #expect(byRecord["b"]?.recordFields == nil, "a deletion carries no fields, as CloudKit fills them for creations and updates")
        #expect(planned.notifications.allSatisfy { $0.notification.subscriptionOwnerUserRecordName == Self.alice })
    }

    @Test func aFiresOnceSubscriptionFiresForItsFirstRecordAndIsReported() async throws {
        let fixture = try await Fixture()
        let query = Query(recordType: "Note")
        try await fixture.subscribe(Self.alice, Subscription(subscriptionID: "once", kind: .query, zoneID: ZoneID(zoneName: "Z"), query: query, firesOnce: true))
        let planned = try await fixture.plan(Self.event([Self.change("a"), Self.change("b")]))
        #expect(planned.notifications.map(\.notification.recordName) == ["a"])
        #expect(planned.fired.map(\.subscription.subscriptionID) == ["once"])
    }

    @Test func onlyTheAuthorsOwnDevicesAreToldApart() async throws {
        let fixture = try await Fixture()
        let publicZone = ZoneKey(database: DatabaseKey(container: Self.container, environment: .development, scope: .public, owner: DatabaseKey.publicOwner), name: ZoneID.defaultZoneName)
        for user in [Self.alice, Self.bob] {
            try await fixture.subscribe(user, scope: .public, Subscription(subscriptionID: "feed-\(user)", kind: .zone))
        }
        let planned = try await fixture.plan(Self.event([Self.change("a")], zone: publicZone, author: Self.bob, device: "phone"))
        let origins = Dictionary(uniqueKeysWithValues: planned.notifications.map { ($0.recipient, $0.originDevice) })
        #expect(origins.count == 2, "every user's public subscription fires")
        #expect(origins[Self.bob] == "phone", "bob's own phone is the origin")
        #expect(origins[Self.alice] == .some(nil), "alice's device named phone is not")
    }

    @Test func aParticipantsSharedDatabaseFiresForWhatTheirShareShows() async throws {
        let fixture = try await Fixture()
        let author = ChangeAuthor(userRecordName: Self.alice, deviceID: "phone", timestamp: 1_000)
        func write(_ name: String, parent: String? = nil) -> RecordWrite {
            RecordWrite(name: name, action: .create, precondition: .none, recordType: "Note", fields: [:], parentName: parent)
        }
        var share = RecordWrite(name: "s1", action: .create, precondition: .none, recordType: ShareNames.recordType)
        let bobInvited = ParticipantSpec(id: nil, userRecordName: Self.bob, email: nil, role: .user, permission: .readWrite, status: nil)
        share.share = ShareWrite(rootName: "root", publicPermission: nil, participants: [bobInvited], participantLimit: 100)
        let made = try await fixture.store.apply(ZoneBatch(zone: Self.zone, atomic: true, writes: [write("root"), write("child", parent: "root"), write("loose"), share], author: author))
        guard case .saved(let shareRecord) = made.outcomes[3], let guid = shareRecord.shortGUID else {
            Issue.record("no share was made: \(made.outcomes)")
            return
        }
        let accepted = try await fixture.store.accept(shortGUID: guid, by: Acceptor(userRecordName: Self.bob, email: nil, timestamp: 2_000, participantLimit: 100))
        guard case .accepted = accepted else {
            Issue.record("bob could not accept: \(accepted)")
            return
        }
        let afterAcceptance = try await fixture.store.currentSequence()
        for user in [Self.bob, Self.carol] {
            try await fixture.subscribe(user, scope: .shared, Subscription(subscriptionID: "shared-\(user)", kind: .database))
        }

        let inShare = try await fixture.plan(Self.event([Self.change("child", .updated)], previousSeq: afterAcceptance))
        #expect(inShare.notifications.map(\.recipient) == [Self.bob], "carol takes no part")
        #expect(inShare.notifications.first?.notification.databaseScope == .shared)
        let outside = try await fixture.plan(Self.event([Self.change("loose", .updated)], previousSeq: afterAcceptance))
        #expect(outside.notifications.isEmpty, "bob's share does not show 'loose'")

        let beforeRemoval = try await fixture.store.currentSequence()
        var removal = RecordWrite(name: "s1", action: .save(replace: false), precondition: .none, recordType: ShareNames.recordType)
        var bobRemoved = bobInvited
        bobRemoved.status = .removed
        removal.share = ShareWrite(rootName: nil, publicPermission: nil, participants: [bobRemoved], participantLimit: 100)
        _ = try await fixture.store.apply(ZoneBatch(zone: Self.zone, atomic: true, writes: [removal], author: author))
        let removed = try await fixture.plan(CommitEvent(zone: Self.zone, author: Self.alice, originDevice: nil, previousSeq: beforeRemoval, touched: ["s1"]))
        #expect(removed.notifications.map(\.recipient) == [Self.bob], "bob's access changed: he is told, though he sees nothing now")
    }
}
