import Foundation
import HTTPTypes
import HummingbirdTesting
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// `?format=apns`: the webcourier in the shape of Apple's courier — one `{aps, ck}` payload per
/// answer, consumed on delivery (never replayed), beside Stratus's own cursor feed.
@Suite struct ApplePayloadTests {
    /// One poll in Apple's shape: the payload, or `nil` for the empty answer `{}`.
    static func next(_ server: TestServer, _ listener: TestListener, timeout: Int = 5) async throws -> ApplePushPayload? {
        let response = try await server.client.execute(
            uri: "\(listener.path)?format=apns&timeout=\(timeout)", method: .get, headers: [:], body: nil
        )
        #expect(response.status == .ok, "\(response.text)")
        if response.text == "{}" { return nil }
        return try response.decode(ApplePushPayload.self)
    }

    @Test func eachAnswerIsOneAPNsPayloadConsumedOnDelivery() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([
                Subscription(subscriptionID: "db", kind: .database),
                Subscription(subscriptionID: "trips", kind: .zone, zoneID: ZoneID(zoneName: "Trips")),
            ])
            let listener = try await server.listener("alice", device: "web")
            try await server.write("porto", caption: "Porto", device: "iphone")

            var seen: [ApplePushPayload] = []
            while let payload = try await Self.next(server, listener, timeout: 1) { seen.append(payload) }
            #expect(seen.count == 2, "\(seen)")
            let database = try #require(seen.first { $0.ck.met != nil })
            #expect(database.ck.met?.sid == "db" && database.ck.met?.dbs == 2 && database.ck.met?.zid == nil)
            #expect(database.aps.contentAvailable == 1 && database.ck.cid == DevSeeder.container && database.ck.ce == 1)
            let zone = try #require(seen.first { $0.ck.fet != nil })
            #expect(zone.ck.fet?.sid == "trips" && zone.ck.fet?.zid == "Trips" && zone.ck.fet?.zoid == server.userRecordName("alice"))
            #expect(Set(seen.map(\.ck.nid)).count == 2)

            // Consumed: nothing is delivered twice, and the next change is the next answer.
            #expect(try await Self.next(server, listener, timeout: 0) == nil)
            try await server.write("lisbon", caption: "Lisbon", device: "iphone")
            let next = try #require(try await Self.next(server, listener))
            #expect(!seen.map(\.ck.nid).contains(next.ck.nid))
        }
    }

    @Test func aQueryNotificationCarriesTheRecordAndItsReason() async throws {
        try await TestServer.run { server in
            let query = Query(recordType: "Destination")
            _ = try await server.subscribe(
                [Subscription(subscriptionID: "places", kind: .query, query: query, firesOn: [.create, .update])], database: "public"
            )
            let listener = try await server.listener("alice", device: "web")
            let request = ModifyRecordsRequest(operations: [RecordOperation(.create, Records.destination("faro", caption: "Faro"))])
            #expect(try await server.post("records/modify", request, database: "public", as: "bob", device: "bob-phone").status == .ok)
            let payload = try #require(try await Self.next(server, listener))
            #expect(payload.ck.qry?.rid == "faro" && payload.ck.qry?.fo == 1 && payload.ck.qry?.dbs == 1 && payload.ck.qry?.sid == "places")
        }
    }

    @Test func anUnknownFormatIsRefused() async throws {
        try await TestServer.run { server in
            let listener = try await server.listener("alice", device: "web")
            let refused = try await server.client.execute(uri: "\(listener.path)?format=xml&timeout=0", method: .get, headers: [:], body: nil)
            #expect(refused.status == .badRequest)
        }
    }
}
