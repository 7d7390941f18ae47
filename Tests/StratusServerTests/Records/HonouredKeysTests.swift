import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Keys the server accepts do what they say.
@Suite("fidelity: accepted keys are honoured")
struct HonouredKeysTests {
    @Test("zoneWide: true searches every zone of the database, each record in its own zone, paging across zones")
    func zoneWideQuery() async throws {
        try await TestServer.run { server in
            for zone in ["Wide", "Other"] {
                try await server.createZone(zone)
                _ = try await server.json("records/modify", object: [
                    "zoneID": ["zoneName": zone], "operations": [createOperation("same", type: "Wider", fields: ["n": ["value": 1]])],
                ])
            }
            _ = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": ZoneID.defaultZoneName], "operations": [createOperation("plain", type: "Wider")],
            ])
            func page(_ marker: String?) async throws -> (found: [String], marker: String?) {
                var body: [String: Any] = ["zoneWide": true, "resultsLimit": 1, "query": ["recordType": "Wider"]]
                if let marker { body["continuationMarker"] = marker }
                let answer = try await server.json("records/query", object: body)
                #expect(answer.status == 200, "\(answer.body)")
                let found = items(answer.body).map { record in
                    "\((record["zoneID"] as? [String: Any])?["zoneName"] as? String ?? "?")/\(record["recordName"] as? String ?? "?")"
                }
                return (found, answer.body["continuationMarker"] as? String)
            }
            var all: [String] = []
            var marker: String?
            repeat {
                let next = try await page(marker)
                all += next.found
                marker = next.marker
            } while marker != nil && all.count < 10
            #expect(all.sorted() == ["Other/same", "Wide/same", "_defaultZone/plain"], "\(all)")

            let shared = try await server.json("records/query", object: ["zoneWide": true, "query": ["recordType": "Wider"]], database: "shared")
            #expect(shared.status == 400)
        }
    }

    @Test("reverse: true reverses a changes/zone page; numbersAsStrings renders numbers as text")
    func reverseAndNumbersAsStrings() async throws {
        try await TestServer.run { server in
            try await server.createZone("Wide")
            _ = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Wide"],
                "operations": (1...3).map { createOperation("w\($0)", type: "Wider", fields: ["n": ["value": $0]]) },
            ])
            func names(_ reverse: Bool, perZone: Bool) async throws -> [String] {
                var zone: [String: Any] = ["zoneID": ["zoneName": "Wide"]]
                var body: [String: Any] = [:]
                if perZone { zone["reverse"] = reverse } else { body["reverse"] = reverse }
                body["zones"] = [zone]
                let answer = try await server.json("changes/zone", object: body)
                let page = (answer.body["zones"] as? [[String: Any]])?.first
                return (page?["records"] as? [[String: Any]] ?? []).compactMap { $0["recordName"] as? String }
            }
            #expect(try await names(false, perZone: true) == ["w1", "w2", "w3"])
            #expect(try await names(true, perZone: true) == ["w3", "w2", "w1"])
            #expect(try await names(true, perZone: false) == ["w3", "w2", "w1"])

            for operation in ["records/lookup", "changes/zone"] {
                let body: [String: Any] = operation == "records/lookup"
                    ? ["zoneID": ["zoneName": "Wide"], "records": [["recordName": "w1"]], "numbersAsStrings": true]
                    : ["zones": [["zoneID": ["zoneName": "Wide"]]], "numberAsStrings": true]
                let answer = try await server.json(operation, object: body)
                let text = String(decoding: try JSONSerialization.data(withJSONObject: answer.body), as: UTF8.self)
                #expect(text.contains(#""value":"1""#), "\(operation): \(text)")
            }
        }
    }
}
