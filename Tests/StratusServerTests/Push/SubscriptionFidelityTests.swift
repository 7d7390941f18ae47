import Foundation
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// Subscriptions as CloudKit has them: zone subscriptions only on custom zones of the private
/// database, one query notification per changed record (with its reason), database
/// notifications without a zone.
@Suite struct SubscriptionFidelityTests {
    @Test func zoneSubscriptionsOnlyWhereCloudKitHasThem() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let body = """
                {"operations": [
                  {"operationType": "create", "subscription": {"subscriptionID": "z-default", "subscriptionType": "zone", "zoneID": {"zoneName": "_defaultZone"}}},
                  {"operationType": "create", "subscription": {"subscriptionID": "z-wide", "subscriptionType": "zone", "zoneWide": true}},
                  {"operationType": "create", "subscription": {"subscriptionID": "z-wide-trips", "subscriptionType": "zone", "zoneWide": true, "zoneID": {"zoneName": "Trips"}}},
                  {"operationType": "create", "subscription": {"subscriptionID": "z-trips", "subscriptionType": "zone", "zoneID": {"zoneName": "Trips"}}},
                  {"operationType": "create", "subscription": {"subscriptionID": "q-wide", "subscriptionType": "query", "zoneWide": true, "query": {"recordType": "Destination"}, "firesOn": ["create"]}}
                ]}
                """
            let response = try await server.raw("subscriptions/modify", body: ByteBuffer(string: body))
            #expect(response.status == .ok, "\(response.text)")
            let results = try response.decode(SubscriptionsResponse.self).subscriptions
            #expect(results.map { $0.error?.serverErrorCode } == [.badRequest, .badRequest, .badRequest, nil, nil], "\(results)")
            #expect(results.map { $0.error?.subscriptionID ?? $0.value?.subscriptionID } == ["z-default", "z-wide", "z-wide-trips", "z-trips", "q-wide"])
            #expect(results.prefix(3).allSatisfy { $0.error?.uuid?.count == 32 && $0.error?.reason.isEmpty == false })
            #expect(results.dropFirst().first?.error?.reason.contains("zoneWide") == true, "zoneWide belongs to query subscriptions")

            // The public database has no zone subscriptions, its default zone included.
            let publicBody = """
                {"operations": [{"operationType": "create", "subscription": {"subscriptionID": "z-pub", "subscriptionType": "zone", "zoneID": {"zoneName": "_defaultZone"}}}]}
                """
            let publicResponse = try await server.raw("subscriptions/modify", database: "public", body: ByteBuffer(string: publicBody))
            #expect(publicResponse.status == .ok, "\(publicResponse.text)")
            let publicResult = try publicResponse.decode(SubscriptionsResponse.self).subscriptions.first
            #expect(publicResult?.error?.serverErrorCode == .badRequest, "\(publicResponse.text)")
            #expect(publicResult?.error?.subscriptionID == "z-pub")

            // Nothing refused was kept.
            let list = try await server.client.execute(
                uri: "\(TestServer.base)/private/subscriptions/list?\(server.query("alice"))", method: .get, headers: [:], body: nil
            ).decode(SubscriptionsResponse.self)
            #expect(Set(list.subscriptions.compactMap(\.value?.subscriptionID)) == ["z-trips", "q-wide"])
        }
    }

    /// The acceptance walk-through: a system-field filter decides as records/query does, three
    /// matching records in one batch make three notifications, a database notification has no zone.
    @Test func querySubscriptionsNotifyPerRecordTheQueryAnswers() async throws {
        try await TestServer.run { server in
            let alice = server.userRecordName("alice")
            _ = try await server.subscribe([
                Subscription(
                    subscriptionID: "q-sys", kind: .query,
                    query: Query(recordType: "Trip", filterBy: [
                        QueryFilter(.equals, systemField: "createdUserRecordName", Field(.reference(Reference(recordName: alice))))
                    ]),
                    firesOn: [.create]
                ),
                Subscription(subscriptionID: "q-all", kind: .query, query: Query(recordType: "Dest"), firesOn: [.create]),
            ], database: "public")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            var phone = try await server.listener("alice", device: "alice-phone")

            let batch = ModifyRecordsRequest(operations: [RecordOperation(.create, Record(recordName: "t1", recordType: "Trip", fields: ["name": .string("bob's")]))]
                + (1...3).map { RecordOperation(.create, Record(recordName: "p\($0)", recordType: "Dest", fields: ["name": .string("\($0)")])) })
            let written = try await server.post("records/modify", batch, database: "public", as: "bob", device: "bob-phone")
            #expect(written.status == .ok, "\(written.text)")
            try await server.createZone("N")
            try await server.write("n1", caption: "x", zone: "N", device: "alice-ipad")

            // Three query notifications, and the database ones (the zone, then its record).
            let got = try await server.collect(&phone, count: 5)
            #expect(!got.contains { $0.subscriptionID == "q-sys" }, "bob created t1: records/query would not answer it")
            let named = got.filter { $0.subscriptionID == "q-all" }
            #expect(named.compactMap(\.recordName).sorted() == ["p1", "p2", "p3"], "\(got)")
            #expect(named.allSatisfy { $0.notificationType == .query && $0.queryNotificationReason == .recordCreated })
            #expect(named.allSatisfy { $0.zoneID?.zoneName == ZoneID.defaultZoneName }, "a query notification names its record's zone")
            let fromDatabase = got.filter { $0.notificationType == .database }
            #expect(Set(fromDatabase.compactMap(\.subscriptionID)) == ["db"], "\(got)")
            #expect(fromDatabase.allSatisfy { $0.zoneID == nil }, "\(fromDatabase)")

            // Alice's own trip is one records/query answers.
            let own = ModifyRecordsRequest(operations: [RecordOperation(.create, Record(recordName: "t2", recordType: "Trip", fields: ["name": .string("alice's")]))])
            #expect(try await server.post("records/modify", own, database: "public", as: "alice", device: "alice-ipad").status == .ok)
            let mine = try await server.collect(&phone, count: 1)
            #expect(mine.map(\.subscriptionID) == ["q-sys"], "\(mine)")
            #expect(mine.first?.recordName == "t2")
        }
    }

    @Test func oneQueryNotificationPerChangedRecordWithItsReason() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let trips = ZoneID(zoneName: "Trips")
            _ = try await server.subscribe([
                Subscription(subscriptionID: "all", kind: .query, zoneID: trips, query: Query(recordType: "Destination"), firesOn: [.create, .update, .delete]),
                Subscription(subscriptionID: "once", kind: .query, zoneID: trips, query: Query(recordType: "Destination"), firesOn: [.create], firesOnce: true),
            ])
            var ipad = try await server.listener("alice", device: "ipad")
            let create = ModifyRecordsRequest(operations: ["a", "b", "c"].map { Records.create($0) }, zoneID: trips)
            #expect(try await server.post("records/modify", create, device: "iphone").status == .ok)
            let created = try await server.collect(&ipad, count: 4)
            let all = created.filter { $0.subscriptionID == "all" }
            #expect(all.compactMap(\.recordName).sorted() == ["a", "b", "c"], "\(created)")
            #expect(all.allSatisfy { $0.queryNotificationReason == .recordCreated && $0.zoneID?.zoneName == "Trips" })
            #expect(Set(all.map(\.notificationID)).count == 3, "each its own notification")
            #expect(created.filter { $0.subscriptionID == "once" }.count == 1, "a fires-once subscription fires once: \(created)")

            let change = ModifyRecordsRequest(operations: [
                RecordOperation(.forceUpdate, Records.destination("a", caption: "A")),
                RecordOperation(.forceUpdate, Records.destination("b", caption: "B")),
                RecordOperation(.forceDelete, Records.destination("c", caption: "C")),
            ], zoneID: trips)
            #expect(try await server.post("records/modify", change, device: "iphone").status == .ok)
            let changed = try await server.collect(&ipad, count: 3)
            let reasons = Dictionary(changed.compactMap { note in note.recordName.map { ($0, note.queryNotificationReason) } }) { first, _ in first }
            #expect(changed.count == 3, "\(changed)")
            #expect(reasons == ["a": .recordUpdated, "b": .recordUpdated, "c": .recordDeleted])
        }
    }
}

extension TestServer {
    /// Polls until `count` notifications arrived (or `seconds` passed), then once more briefly,
    /// so a notification too many shows.
    func collect(_ listener: inout TestListener, count: Int, seconds: Int = 30) async throws -> [PushNotification] {
        var got: [PushNotification] = []
        let deadline = ContinuousClock.now + .seconds(seconds)
        while got.count < count, ContinuousClock.now < deadline {
            got += try await poll(&listener, timeout: 2)
        }
        got += try await poll(&listener, timeout: 1)
        return got
    }
}
