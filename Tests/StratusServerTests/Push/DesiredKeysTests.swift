import Foundation
import HummingbirdTesting
import StratusModel
import StratusServerTesting
import Testing

/// A query subscription's `notificationInfo.desiredKeys`: each notification of a created or
/// updated record carries the record's values of those keys (CKQueryNotification.recordFields),
/// and no other field — in the feed as `recordFields`, in Apple's courier shape as `ck.qry.af`,
/// the latter within APNs's 4 KB.
@Suite struct DesiredKeysTests {
    /// alice's public query subscription on Destination, asking for `keys`.
    static func subscribe(_ server: TestServer, keys: [String]) async throws {
        var info = NotificationInfo(shouldSendContentAvailable: true)
        info.desiredKeys = keys
        let subscription = Subscription(
            subscriptionID: "places", kind: .query, query: Query(recordType: "Destination"), firesOn: [.create, .update, .delete],
            notificationInfo: info
        )
        let saved = try await server.subscribe([subscription], database: "public")
        #expect(saved.count == 1)
    }

    /// bob saves a Destination in the public database from his phone.
    static func bobWrites(_ server: TestServer, _ operation: RecordOperation) async throws {
        let request = ModifyRecordsRequest(operations: [operation])
        let response = try await server.post("records/modify", request, database: "public", as: "bob", device: "bob-phone")
        #expect(response.status == .ok, "\(response.text)")
    }

    @Test func theFeedAndTheCourierCarryTheDesiredKeysAndNoOtherField() async throws {
        try await TestServer.run { server in
            try await Self.subscribe(server, keys: ["title"])
            var feed = try await server.listener("alice", device: "laptop")
            let courier = try await server.listener("alice", device: "web")
            let faro = Records.destination("faro", caption: "Faro", extra: ["title": .string("Faro, Algarve"), "notes": .string("private")])
            try await Self.bobWrites(server, RecordOperation(.create, faro))

            let notification = try #require(try await server.poll(&feed).first)
            #expect(notification.recordName == "faro" && notification.queryNotificationReason == .recordCreated)
            #expect(notification.recordFields == ["title": .string("Faro, Algarve")], "\(String(describing: notification.recordFields))")
            #expect(notification.subscriptionOwnerUserRecordName == server.userRecordName("alice"))

            let response = try await server.client.execute(uri: "\(courier.path)?format=apns&timeout=5", method: .get, headers: [:], body: nil)
            #expect(response.status == .ok)
            // Apple's shape: the string bare under `ck.qry.af`, nothing else of the record.
            #expect(response.text.contains(#""af":{"title":"Faro, Algarve"}"#), "\(response.text)")
            #expect(!response.text.contains("private") && !response.text.contains("caption"))
            let payload = try response.decode(ApplePushPayload.self)
            #expect(payload.ck.qry?.af == ["title": ApplePushPayload.RecordField(.string("Faro, Algarve"))])
            #expect(payload.ck.qry?.rid == "faro" && payload.ck.p == nil)
            #expect(payload.ck.ckuserid == server.userRecordName("alice"))
        }
    }

    @Test func anUpdateCarriesTheValuesAfterItAndADeletionNone() async throws {
        try await TestServer.run { server in
            try await Self.subscribe(server, keys: ["title", "nights", "when"])
            var feed = try await server.listener("alice", device: "laptop")
            let fields: [String: Field] = ["title": .string("Porto"), "nights": .int64(3), "when": .timestamp(milliseconds: 1_767_225_600_000)]
            try await Self.bobWrites(server, RecordOperation(.create, Records.destination("porto", caption: "Porto", extra: fields)))
            _ = try await server.poll(&feed)
            let again = Records.destination("porto", caption: "Porto", extra: ["title": .string("Porto, again")])
            try await Self.bobWrites(server, RecordOperation(.forceUpdate, again))
            let updated = try #require(try await server.poll(&feed).first)
            #expect(updated.queryNotificationReason == .recordUpdated)
            #expect(updated.recordFields?["title"] == .string("Porto, again"))

            let delete = RecordOperation(.forceDelete, Record(recordName: "porto", recordType: "Destination"))
            try await Self.bobWrites(server, delete)
            let deleted = try #require(try await server.poll(&feed).first)
            #expect(deleted.queryNotificationReason == .recordDeleted && deleted.recordFields == nil)
        }
    }

    @Test func theCourierLeavesOutWhatDoesNotFitIn4KBAndSaysSo() async throws {
        try await TestServer.run { server in
            try await Self.subscribe(server, keys: ["title", "notes"])
            var feed = try await server.listener("alice", device: "laptop")
            let courier = try await server.listener("alice", device: "web")
            let long = String(repeating: "n", count: 5_000)
            let lagos = Records.destination("lagos", caption: "Lagos", extra: ["title": .string("Lagos"), "notes": .string(long)])
            try await Self.bobWrites(server, RecordOperation(.create, lagos))

            let notification = try #require(try await server.poll(&feed).first)
            #expect(notification.recordFields == ["title": .string("Lagos"), "notes": .string(long)], "the feed carries every desired key")

            let response = try await server.client.execute(uri: "\(courier.path)?format=apns&timeout=5", method: .get, headers: [:], body: nil)
            #expect(response.status == .ok && response.text.utf8.count <= 4_096, "\(response.text.utf8.count) bytes")
            let payload = try response.decode(ApplePushPayload.self)
            #expect(payload.ck.qry?.af == ["title": ApplePushPayload.RecordField(.string("Lagos"))], "the key that fits is kept")
            #expect(payload.ck.p == true, "pruned: a desired key was left out")
            #expect(payload.ck.qry?.rid == "lagos")
        }
    }
}
