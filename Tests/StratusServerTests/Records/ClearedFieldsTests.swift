import Foundation
import HTTPTypes
import StratusModel
import StratusServerTesting
import Testing

/// The wire's two extensions of records/modify for Apple's framework: an update that clears a
/// field or the parent (`clearedFields`, `clearsParent`) and leaves every other field as the
/// server has it; and batches of the framework's 400 operations for a client that asks for
/// `frameworkBatches`. A plain CKWS client, sending neither, sees Apple's answers exactly.
@Suite("records/modify: cleared fields and the framework's batch size")
struct ClearedFieldsTests {
    private let frameworkBatches: HTTPFields = [HTTPField.Name(WireExtensions.headerName)!: "frameworkBatches"]

    @Test("an update that clears one field removes it and keeps every field it does not name")
    func updateClearsOnlyTheNamedFields() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Trips"],
                "operations": [createOperation("r", fields: ["title": ["value": "Lisbon"], "body": ["value": "tram"], "mood": ["value": "sunny"]])],
            ])
            let tag = try #require(items(created.body).first?["recordChangeTag"] as? String)
            // Only the system fields and the clear: what a device that never held the fields sends.
            let answer = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Trips"],
                "operations": [["operationType": "update", "record": ["recordName": "r", "recordChangeTag": tag, "clearedFields": ["mood"]]]],
            ])
            #expect(answer.status == 200, "\(answer.body)")
            let fields = try #require(items(answer.body).first?["fields"] as? [String: Any], "\(answer.body)")
            #expect(Set(fields.keys) == ["title", "body"])
            let stored = try await server.lookup(["r"], zone: "Trips")
            #expect(stored.first?.record?.fields?.keys.sorted() == ["body", "title"])
        }
    }

    @Test("a forceUpdate clears the parent and keeps the fields; the record stops being a child")
    func forceUpdateClearsTheParent() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let codes = try await server.itemCodes(
                [createOperation("root"), createOperation("child", fields: ["title": ["value": "kept"]], parent: "root")], zone: "Trips"
            )
            #expect(codes == [nil, nil])
            let answer = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Trips"],
                "operations": [["operationType": "forceUpdate", "record": ["recordName": "child", "clearsParent": true]]],
            ])
            #expect(answer.status == 200)
            let record = try #require(try await server.lookup(["child"], zone: "Trips").first?.record)
            #expect(record.parent == nil)
            #expect(record.fields?["title"]?.value == .string("kept"))
        }
    }

    @Test("clears on a create or replace, of a field also given, or beside a parent are per-item BAD_REQUEST; nothing changes")
    func misplacedClearsAreRefused() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            #expect(try await server.itemCodes([createOperation("r", fields: ["title": ["value": "a"]])], zone: "Trips") == [nil])
            let refused: [[String: Any]] = [
                ["operationType": "create", "record": ["recordName": "n", "recordType": "T", "clearedFields": ["title"]]],
                ["operationType": "forceReplace", "record": ["recordName": "r", "recordType": "T", "clearedFields": ["title"]]],
                ["operationType": "forceUpdate", "record": ["recordName": "r", "fields": ["title": ["value": "b"]], "clearedFields": ["title"]]],
                ["operationType": "forceUpdate", "record": ["recordName": "r", "parent": ["recordName": "p"], "clearsParent": true]],
                ["operationType": "forceUpdate", "record": ["recordName": "r", "clearedFields": ["not a name"]]],
            ]
            for operation in refused {
                #expect(try await server.itemCodes([operation], zone: "Trips", atomic: false) == ["BAD_REQUEST"], "\(operation)")
            }
            let record = try #require(try await server.lookup(["r"], zone: "Trips").first?.record)
            #expect(record.fields?["title"]?.value == .string("a"))
        }
    }

    @Test("CKWS's 200 operations a request hold for a plain client; a client asking for frameworkBatches commits 400 atomically")
    func frameworkBatchesTakeFourHundredOperations() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let operations = (0..<400).map { Records.create("r\($0)") }
            let body = ModifyRecordsRequest(operations: operations, zoneID: ZoneID(zoneName: "Trips"), atomic: true)
            let plain = try await server.post("records/modify", body)
            #expect(plain.status == .badRequest)
            #expect(plain.errorBody?.nativeErrorCode == CKErrorCodeNumber.limitExceeded)

            let asked = try await server.raw(
                "records/modify", body: .init(data: try JSONEncoder().encode(body)), headers: frameworkBatches
            )
            #expect(asked.status == .ok, "\(asked.text.prefix(300))")
            let answered = try asked.decode(RecordsResponse.self).records
            #expect(answered.count == 400 && answered.allSatisfy { $0.record != nil })

            let tooMany = ModifyRecordsRequest(operations: (0...400).map { Records.create("s\($0)") }, zoneID: ZoneID(zoneName: "Trips"))
            let over = try await server.raw("records/modify", body: .init(data: try JSONEncoder().encode(tooMany)), headers: frameworkBatches)
            #expect(over.status == .badRequest && over.errorBody?.nativeErrorCode == CKErrorCodeNumber.limitExceeded)
        }
    }
}
