import Foundation
import HummingbirdTesting
import NIOCore
import NIOFoundationCompat
import StratusModel
import StratusServerTesting
import Testing

/// Which changes notify whom: subscription types, devices, shares, replay, rollbacks.
@Suite struct DeliveryTests {
    @Test func eachSubscriptionTypeFiresForItsChangesOnly() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            try await server.createZone("Other")
            _ = try await server.subscribe([
                Subscription(subscriptionID: "db", kind: .database),
                Subscription(subscriptionID: "trips", kind: .zone, zoneID: ZoneID(zoneName: "Trips")),
                Subscription(
                    subscriptionID: "deleted-lisbon", kind: .query, zoneID: ZoneID(zoneName: "Trips"),
                    query: Query(recordType: "Destination", filterBy: [QueryFilter(.equals, field: "caption", .string("Lisbon"))]),
                    firesOn: [.delete]
                ),
            ])
            var ipad = try await server.listener("alice", device: "ipad")
            try await server.write("porto", caption: "Porto", zone: "Other", device: "iphone")
            let other = try await server.poll(&ipad)
            #expect(other.map(\.subscriptionID) == ["db"], "only the database subscription covers Other: \(other)")
            #expect(other.first?.notificationType == .database)
            #expect(other.first?.zoneID == nil, "a database notification names no zone (CKDatabaseNotification has none)")

            try await server.write("lisbon", caption: "Lisbon", device: "iphone")
            let trips = try await server.poll(&ipad)
            #expect(Set(trips.compactMap(\.subscriptionID)) == ["db", "trips"], "\(trips)")
            let zone = trips.first { $0.subscriptionID == "trips" }
            #expect(zone?.notificationType == .recordZone)
            #expect(zone?.zoneID == ZoneID(zoneName: "Trips", ownerRecordName: server.userRecordName("alice")))
            #expect(zone?.containerIdentifier == server.credentials.container)
            #expect(zone?.databaseScope == .private)
            #expect(trips.allSatisfy { !$0.notificationID.isEmpty && !$0.isPruned })

            let current = try await server.lookup(["lisbon"], zone: "Trips").first?.record
            var delete = Records.destination("lisbon", caption: "Lisbon")
            delete.recordChangeTag = current?.recordChangeTag
            _ = try await server.modify([RecordOperation(.delete, delete)], zone: "Trips")
            let deleted = try await server.poll(&ipad)
            let query = deleted.first { $0.subscriptionID == "deleted-lisbon" }
            #expect(query?.notificationType == .query)
            #expect(query?.recordName == "lisbon")
            #expect(query?.queryNotificationReason == .recordDeleted)
            #expect(deleted.count == 3, "one per subscription per batch: \(deleted)")
        }
    }

    @Test func theOriginatingDeviceIsNotNotifiedItsSiblingIs() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var iphone = try await server.listener("alice", device: "iphone")
            var ipad = try await server.listener("alice", device: "ipad")
            // bob's device shares the iPhone's name: a name is not an identity across accounts.
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)], as: "bob")
            try await server.write("paris", caption: "Paris", device: "iphone")
            #expect(try await server.poll(&ipad).count == 1)
            #expect(try await server.poll(&iphone, timeout: 1).isEmpty)
        }
    }

    /// A held poll waits in its answer's body, on the connection's own task: a change by its own
    /// device wakes it without answering, and it answers the sibling's change that follows.
    @Test func aHeldPollSleepsThroughItsOwnDevicesChangeAndAnswersTheNext() async throws {
        try await TestServer.run(live: true) { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var ipad = try await server.listener("alice", device: "ipad")
            _ = try await server.poll(&ipad, timeout: 0)
            // The held poll has a connection of its own: the test client sends one request at a time.
            guard let port = server.client.port else { throw TestFailure("no port") }
            let second = TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: .seconds(30)))
            second.connect()
            defer { Task { try? await second.shutdown() } }
            let held = Task { [ipad] in
                let response = try await second.get("\(ipad.path)?format=stratus&timeout=20&cursor=\(ipad.cursor ?? "")")
                let feed = try JSONDecoder().decode(NotificationFeed.self, from: Data(buffer: response.body ?? ByteBuffer()))
                return (feed.notifications, TestListener(path: ipad.path, cursor: feed.cursor))
            }
            try await Task.sleep(for: .milliseconds(300))
            try await server.write("own", caption: "the iPad's own change", device: "ipad")
            try await Task.sleep(for: .milliseconds(300))
            let started = ContinuousClock.now
            try await server.write("paris", caption: "Paris", device: "iphone")
            let notifications: [PushNotification]
            (notifications, ipad) = try await held.value
            #expect(notifications.map(\.subscriptionID) == ["db"], "the iPhone's change only, not the iPad's own")
            #expect(ContinuousClock.now - started < .seconds(10), "woken by the change, not by the poll's timeout")
            #expect(try await server.poll(&ipad, timeout: 0).isEmpty, "the cursor is past both changes")
        }
    }

    @Test func sharedDatabaseSubscriptionFollowsAccess() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            try await server.write("trip", caption: "Lisbon", device: "iphone")
            try await server.write("elsewhere", caption: "Not shared", device: "iphone")
            let created = try await server.modify(
                [TestServer.createShare("trip-share", root: "trip", participants: [server.invite("bob", .readWrite)])], zone: "Trips"
            )
            let share = try #require(created.first?.record)
            let guid = try #require(share.shortGUID)
            _ = try await server.accept(guid, as: "bob")
            _ = try await server.subscribe([Subscription(subscriptionID: "shared", kind: .database)], database: "shared", as: "bob")
            var phone = try await server.listener("bob", device: "phone")

            try await server.write("trip", caption: "Lisbon, day 2", device: "iphone")
            let edit = try await server.poll(&phone)
            #expect(edit.first?.databaseScope == .shared)
            #expect(edit.first?.zoneID == nil, "a database notification names no zone: the participant fetches database changes")
            // A record outside his share: nothing for bob.
            try await server.write("elsewhere", caption: "Still not shared", device: "iphone")
            #expect(try await server.poll(&phone, timeout: 1).isEmpty)

            // Stopping sharing tells him once; later edits are no longer his business.
            let current = try await server.lookup(["trip-share"], zone: "Trips").first?.record
            var stop = Record(recordName: "trip-share", recordType: ShareNames.recordType)
            stop.recordChangeTag = current?.recordChangeTag
            _ = try await server.modify([RecordOperation(.delete, stop)], zone: "Trips")
            #expect(try await server.poll(&phone).count == 1)
            try await server.write("trip", caption: "Lisbon, private again", device: "iphone")
            #expect(try await server.poll(&phone, timeout: 1).isEmpty)
        }
    }

    @Test func publicQuerySubscriptionFiresOnMatchingCreatesOnly() async throws {
        try await TestServer.run { server in
            _ = try await server.subscribe([Subscription(
                subscriptionID: "five", kind: .query,
                query: Query(recordType: "Place", filterBy: [QueryFilter(.equals, field: "rank", .int64(5))]), firesOn: [.create]
            )], database: "public", as: "carol")
            var carol = try await server.listener("carol", device: "phone")
            func place(_ name: String, rank: Int64) async throws -> RecordResult? {
                let request = ModifyRecordsRequest(operations: [RecordOperation(.create, Record(
                    recordName: name, recordType: "Place", fields: ["rank": .int64(rank)]
                ))])
                return try await server.post("records/modify", request, database: "public", device: "alice-phone")
                    .decode(RecordsResponse.self).records.first
            }
            _ = try await place("p3", rank: 3)
            _ = try await place("p5", rank: 5)
            let fired = try await server.poll(&carol)
            #expect(fired.count == 1)
            #expect(fired.first?.recordName == "p5")
            #expect(fired.first?.queryNotificationReason == .recordCreated)
            #expect(fired.first?.databaseScope == .public)
        }
    }

    @Test func aDeviceBackFromOfflineGetsWhatItMissedOnce() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var ipad = try await server.listener("alice", device: "ipad")
            for index in 0..<50 { try await server.write("d\(index)", caption: "day \(index)", device: "iphone") }
            var seen: [String] = []
            // The offline writes are delivered after commit: read until all fifty arrived.
            while seen.count < 50 {
                let page = try await server.poll(&ipad)
                if page.isEmpty { break }
                seen += page.map(\.notificationID)
            }
            #expect(seen.count == 50)
            #expect(Set(seen).count == 50)
            #expect(try await server.poll(&ipad, timeout: 1).isEmpty)
            // The same cursor again answers nothing twice; an old cursor replays the same IDs.
            var replay = TestListener(path: ipad.path, cursor: nil)
            let again = try await server.poll(&replay)
            #expect(again.map(\.notificationID) == Array(seen.prefix(again.count)))
        }
    }

    @Test func aFailedAtomicBatchNotifiesNoOne() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            try await server.write("paris", caption: "Paris", device: "iphone")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var ipad = try await server.listener("alice", device: "ipad")
            var stale = Records.destination("paris", caption: "stale")
            stale.recordChangeTag = "stale"
            let results = try await server.modify([Records.create("ghost"), RecordOperation(.update, stale)], zone: "Trips", atomic: true)
            #expect(results.allSatisfy { $0.error != nil })
            #expect(try await server.poll(&ipad, timeout: 1).isEmpty)
        }
    }

    @Test func creatingAZoneThatExistsNotifiesNoOne() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var ipad = try await server.listener("alice", device: "ipad")
            try await server.createZone("Trips")
            let extra = try await server.poll(&ipad, timeout: 1)
            #expect(extra.isEmpty, "the zone was there already: nothing changed \(extra)")
            try await server.createZone("Museums")
            #expect(try await server.poll(&ipad).count == 1)
        }
    }

    @Test func feedErrorsAreCloudKitShaped() async throws {
        try await TestServer.run { server in
            let unknown = try await server.client.execute(uri: "/stratus/v1/push/nope?timeout=0", method: .get, headers: [:], body: nil)
            #expect(unknown.status == .notFound)
            #expect(unknown.errorBody?.serverErrorCode == .notFound)
            let listener = try await server.listener("alice", device: "ipad")
            let badCursor = try await server.client.execute(uri: "\(listener.path)?format=stratus&cursor=x", method: .get, headers: [:], body: nil)
            #expect(badCursor.errorBody?.serverErrorCode == .badRequest)
            let register = try await server.post("tokens/register", PushTokenRequest(apnsToken: "never-made"), device: nil)
            #expect(register.status == .notFound)
        }
    }
}
