import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Tokens and markers are opaque but unsigned: a forged one is refused as CloudKit refuses a
/// token it never issued, never echoed back and never a 500. Queries too large for the engine
/// are refused before it sees them.
@Suite("hardening: forged tokens, markers and oversized queries")
struct ForgedInputTests {
    /// The token with its sequence moved `by` ahead.
    static func ahead(_ text: String, by: Int64) throws -> String {
        let token = try #require(ChangeToken(encoded: text))
        return ChangeToken(kind: token.kind, zoneGeneration: token.zoneGeneration, sequence: token.sequence + by).encoded
    }

    @Test("a change token ahead of the zone or the database is refused as expired")
    func futureTokens() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("paris")], zone: "Trips")
            guard case .success(let page) = try await server.zoneChanges("Trips") else { throw TestFailure("no page") }
            let future = try ForgedInputTests.ahead(page.syncToken, by: 5)

            guard case .failure(let error) = try await server.zoneChanges("Trips", token: future) else {
                throw TestFailure("changes/zone accepted a token from the future")
            }
            #expect(error.serverErrorCode == .badRequest && error.nativeErrorCode == CKErrorCodeNumber.changeTokenExpired)

            let older = try await server.json("records/changes", object: ["zoneID": ["zoneName": "Trips"], "syncToken": future])
            #expect(older.status == 400 && older.body["nativeErrorCode"] as? Int == CKErrorCodeNumber.changeTokenExpired, "\(older.body)")

            // The token as issued still works, and a later change shows up through it.
            _ = try await server.modify([Records.create("rome")], zone: "Trips")
            guard case .success(let next) = try await server.zoneChanges("Trips", token: page.syncToken) else { throw TestFailure("no page") }
            #expect(next.records.map(\.recordName) == ["rome"])

            let database = try await server.json("changes/database", "{}")
            let databaseToken = try #require(database.body["syncToken"] as? String)
            for scope in ["private", "shared"] {
                let answer = try await server.json(
                    "changes/database", object: ["syncToken": try ForgedInputTests.ahead(databaseToken, by: 1_000)], database: scope
                )
                #expect(answer.status == 400 && answer.body["nativeErrorCode"] as? Int == CKErrorCodeNumber.changeTokenExpired, "\(scope): \(answer.body)")
            }
        }
    }

    @Test("too many filters, sorts or list values answer BAD_REQUEST, not 500")
    func oversizedQueries() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let filters = (0..<1_200).map { ["comparator": "EQUALS", "fieldName": "i", "fieldValue": ["value": $0]] }
            let manyFilters = try await server.json("records/query", object: [
                "zoneID": ["zoneName": "Trips"], "query": ["recordType": "T", "filterBy": filters],
            ])
            #expect(manyFilters.status == 400 && (manyFilters.body["reason"] as? String)?.contains("filterBy") == true, "\(manyFilters.body)")

            let sorts = (0..<1_200).map { ["fieldName": "f\($0)"] }
            let manySorts = try await server.json("records/query", object: [
                "zoneID": ["zoneName": "Trips"], "query": ["recordType": "T", "sortBy": sorts],
            ])
            #expect(manySorts.status == 400 && (manySorts.body["reason"] as? String)?.contains("sortBy") == true, "\(manySorts.body)")

            let values = (0..<40_000).map { ["value": $0] as [String: Any] }
            let longList = try await server.json("records/query", object: [
                "zoneID": ["zoneName": "Trips"],
                "query": ["recordType": "T", "filterBy": [["comparator": "IN", "fieldName": "i", "fieldValue": ["value": values, "type": "INT64_LIST"]]]],
            ])
            #expect(longList.status == 400 && longList.body["serverErrorCode"] as? String == "BAD_REQUEST", "\(longList.status) \(longList.body)")

            let scalar = try await server.json("records/query", object: [
                "zoneID": ["zoneName": "Trips"],
                "query": ["recordType": "T", "filterBy": [["comparator": "IN", "fieldName": "x", "fieldValue": ["value": 3]]]],
            ])
            #expect(scalar.status == 400 && (scalar.body["reason"] as? String)?.contains("list") == true, "\(scalar.body)")
        }
    }

    @Test("a continuation marker with a forged cursor answers BAD_REQUEST")
    func forgedMarkers() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify((0..<5).map { index in
                RecordOperation(.create, Record(recordName: "k\(index)", recordType: "Kq", fields: ["i": .int64(Int64(index))]))
            }, zone: "Trips")
            let query: [String: Any] = [
                "zoneID": ["zoneName": "Trips"], "resultsLimit": 1, "query": ["recordType": "Kq", "sortBy": [["fieldName": "i"]]],
            ]
            let first = try await server.json("records/query", object: query)
            let marker = try #require(first.body["continuationMarker"] as? String)
            let markerData = try #require(Data(base64Encoded: marker))
            let decoded = try #require(try JSONSerialization.jsonObject(with: markerData) as? [String: Any])
            let cursor = try #require(decoded["cursor"] as? [String: Any])
            let values = try #require(cursor["values"] as? [Any])
            var forged: [String] = []
            for wrong in [[], Array(values.prefix(1)), values + values + values, Array(repeating: values, count: 334).flatMap { $0 }] {
                var copy = decoded
                copy["cursor"] = ["values": wrong]
                forged.append(try JSONSerialization.data(withJSONObject: copy).base64EncodedString())
            }
            forged.append(Data((String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)).utf8).base64EncodedString())
            forged.append("not base64 at all")
            for marker in forged {
                var request = query
                request["continuationMarker"] = marker
                let answer = try await server.json("records/query", object: request)
                #expect(answer.status == 400 && answer.body["serverErrorCode"] as? String == "BAD_REQUEST", "\(answer.status) \(answer.body)")
            }
            var good = query
            good["continuationMarker"] = marker
            let second = try await server.json("records/query", object: good)
            #expect(items(second.body).first?["recordName"] as? String == "k1")
        }
    }
}
