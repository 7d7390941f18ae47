import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Zone and database subscriptions that name a record type (CKRecordZoneSubscription's and
/// CKDatabaseSubscription's `recordType`) fire only for changes to records of that type.
@Suite struct TypedSubscriptionTests {
    @Test func aTypedZoneOrDatabaseSubscriptionFiresOnlyForItsRecordType() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            var zone = Subscription(subscriptionID: "zone-notes", kind: .zone, zoneID: ZoneID(zoneName: "Trips"))
            zone.recordType = "Note"
            var database = Subscription(subscriptionID: "db-notes", kind: .database)
            database.recordType = "Note"
            let results = try await server.subscribe([zone, database])
            #expect(results.allSatisfy { $0.value?.recordType == "Note" }, "\(results)")
            var listener = try await server.listener("alice", device: "phone")

            // A Destination (not a Note) fires neither.
            try await server.write("lisbon", caption: "Lisbon", device: "laptop")
            #expect(try await server.poll(&listener, timeout: 1).isEmpty)

            let note = ModifyRecordsRequest(
                operations: [RecordOperation(.create, Record(recordName: "n1", recordType: "Note", fields: ["text": .string("hi")]))],
                zoneID: ZoneID(zoneName: "Trips")
            )
            #expect(try await server.post("records/modify", note, device: "laptop").status == .ok)
            let fired = try await server.poll(&listener)
            #expect(Set(fired.compactMap(\.subscriptionID)) == ["zone-notes", "db-notes"], "\(fired)")
        }
    }

    @Test func aQuerySubscriptionNamesItsTypeInItsQueryNotInRecordType() async throws {
        try await TestServer.run { server in
            var query = Subscription(
                subscriptionID: "q", kind: .query, zoneWide: true, query: Query(recordType: "Note"), firesOn: [.create]
            )
            query.recordType = "Note"
            var bad = Subscription(subscriptionID: "bad-type", kind: .database)
            bad.recordType = "not a type"
            let results = try await server.subscribe([query, bad])
            #expect(results.map { $0.error?.serverErrorCode } == [.badRequest, .badRequest], "\(results)")
        }
    }
}
