import Foundation
import HTTPTypes
import NIOCore
import StratusServerTesting
import Testing

/// Where schemathesis found `openapi.yaml` and the server disagreeing: each case now answers
/// as the description says (Tests/Compatibility/schemathesis runs the whole description).
@Suite("hardening: the description and the server agree")
struct DescriptionAgreementTests {
    @Test("what the description forbids is refused")
    func forbiddenInput() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let unknownZoneType = try await server.json("zones/lookup", object: ["zones": [["zoneName": "Trips", "zoneType": "AAA"]]])
            #expect(unknownZoneType.status == 400 && (unknownZoneType.body["reason"] as? String)?.contains("zoneType") == true)

            for body in ["[null, null]", "\"zones\"", "7"] {
                let answer = try await server.json("zones/list", body)
                #expect(answer.status == 400, "zones/list with \(body): \(answer.status)")
            }
            let parentWithoutName = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Trips"], "operations": [["operationType": "create", "record": ["recordType": "T", "parent": [:]]]],
            ])
            #expect(parentWithoutName.status == 400, "\(parentWithoutName.body)")

            for text in ["1234567890123456789", "12abc", "nan", "0x10", "1e5"] {
                let answer = try await server.json("records/modify", object: [
                    "zoneID": ["zoneName": "Trips"],
                    "operations": [createOperation("n", fields: ["count": ["value": text, "type": "INT64"]])],
                ])
                #expect(answer.status == 400, "INT64 text '\(text)': \(answer.status)")
            }
            let both = try await server.json("changes/zone", object: [
                "zones": [["zoneID": ["zoneName": "Trips"]]], "numbersAsStrings": true, "numberAsStrings": "yes",
            ])
            #expect(both.status == 400, "a numberAsStrings of the wrong type beside a good numbersAsStrings")

            for database in ["public"] {
                for operation in ["zones/modify", "changes/database", "changes/zone", "records/changes"] {
                    let answer = try await server.json(operation, "{}", database: database)
                    #expect(answer.status == 400, "\(operation) in \(database)")
                }
            }
            let query = try await server.raw("records/query", body: nil, method: HTTPRequest.Method("QUERY") ?? .get)
            #expect(query.status == .methodNotAllowed)
        }
    }

    @Test("what the description allows is accepted: nulls for optional keys, numbers as short decimal text")
    func allowedInput() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let nulls = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Trips", "ownerRecordName": NSNull(), "zoneType": NSNull()], "atomic": NSNull(), "desiredKeys": NSNull(),
                "operations": [["operationType": "create", "desiredKeys": NSNull(), "record": [
                    "recordName": "n", "recordType": "T", "recordChangeTag": NSNull(), "parent": NSNull(),
                    "fields": ["count": ["value": "-123456789012345678", "type": "INT64"], "ratio": ["value": "+1.25", "type": "DOUBLE"],
                               "when": ["value": "1767225600000", "type": NSNull()]],
                ]]],
            ])
            let record = try #require(items(nulls.body).first)
            #expect(nulls.status == 200 && record["serverErrorCode"] == nil, "\(nulls.body)")
            let fields = record["fields"] as? [String: [String: Any]]
            #expect(fields?["count"]?["value"] as? Int64 == -123_456_789_012_345_678)
            #expect(fields?["ratio"]?["value"] as? Double == 1.25)
            let list = try await server.json("zones/list", "{\"anything\": null}")
            #expect(list.status == 200)
        }
    }
}
