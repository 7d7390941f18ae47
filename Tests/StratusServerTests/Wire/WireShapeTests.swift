import Foundation
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// The wire as strict clients read it (issue 12, item 1): tombstones carry nothing but their
/// name, zone and `deleted`; reasons speak of keys, not Swift types; one uuid format.
@Suite("wire shapes")
struct WireShapeTests {
    @Test("a tombstone is exactly {recordName, deleted, zoneID}")
    func tombstoneShape() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("gone")], zone: "Trips")
            _ = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "gone"))], zone: "Trips")
            for (operation, body) in [
                ("changes/zone", #"{"zones":[{"zoneID":{"zoneName":"Trips"}}]}"#),
                ("records/changes", #"{"zoneID":{"zoneName":"Trips"}}"#),
            ] {
                let answer = try await server.json(operation, body)
                let records = (answer.body["zones"] as? [[String: Any]])?.first?["records"] as? [[String: Any]] ?? answer.body["records"] as? [[String: Any]] ?? []
                let tombstone = try #require(records.first { $0["recordName"] as? String == "gone" })
                #expect(Set(tombstone.keys) == ["recordName", "deleted", "zoneID"], "\(operation): \(tombstone)")
            }
        }
    }

    @Test("malformed bodies are explained by key and expected JSON, with no Swift type names")
    func plainReasons() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let cases = [
                (#"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"upsert","record":{"recordName":"x"}}]}"#, "'upsert' is not one of"),
                (#"{"records":"x"}"#, "key 'records': expected an array"),
                (#"{"zoneID":{"zoneName":7},"records":[]}"#, "key 'zoneID.zoneName': expected a string"),
            ]
            for (body, expected) in cases {
                let operation = body.contains("operations") ? "records/modify" : "records/lookup"
                let answer = try await server.json(operation, body)
                let reason = answer.body["reason"] as? String ?? ""
                #expect(answer.status == 400 && reason.contains(expected), "\(reason)")
                #expect(!reason.contains("Swift") && !reason.contains("Array<") && !reason.contains("Cannot initialize"), "\(reason)")
            }
        }
    }

    @Test("an unknown container says so; request and item uuids share one format")
    func containerAndUUIDs() async throws {
        try await TestServer.run { server in
            let unknown = try await server.client.execute(
                uri: "/database/1/iCloud.com.example.Nope/development/public/records/query?\(server.query(nil))",
                method: .post, headers: [:], body: ByteBuffer(string: #"{"query":{"recordType":"T"}}"#)
            )
            #expect(unknown.errorBody?.reason.contains("no container 'iCloud.com.example.Nope'") == true, "\(unknown.text)")

            let top = try #require(unknown.errorBody?.uuid)
            let item = try await server.json("records/lookup", #"{"zoneID":{"zoneName":"Missing"},"records":[{"recordName":"x"}]}"#)
            let itemUUID = try #require(items(item.body).first?["uuid"] as? String)
            let shape = /^[0-9a-f]{32}$/
            #expect(top.wholeMatch(of: shape) != nil && itemUUID.wholeMatch(of: shape) != nil, "\(top) \(itemUUID)")
        }
    }
}
