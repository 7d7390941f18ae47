import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// CloudKit's default zone is not a sync zone: change tokens exist for custom zones only.
@Suite("fidelity: the default zone has no change feed")
struct SyncZoneTests {
    @Test("changes/database never lists _defaultZone; changes/zone and records/changes refuse it")
    func defaultZoneHasNoFeed() async throws {
        try await TestServer.run { server in
            _ = try await server.modify([Records.create("d1")], zone: ZoneID.defaultZoneName)
            try await server.createZone("Trips")
            let database = try await server.json("changes/database", "{}")
            let listed = (database.body["zones"] as? [[String: Any]] ?? []).compactMap { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String }
            #expect(listed == ["Trips"])

            guard case .failure(let error) = try await server.zoneChanges(ZoneID.defaultZoneName) else {
                throw TestFailure("changes/zone answered for the default zone")
            }
            #expect(error.serverErrorCode == .badRequest && error.reason.contains("custom zones only"))
            let older = try await server.json("records/changes", object: ["zoneID": ["zoneName": ZoneID.defaultZoneName]])
            #expect(older.status == 400)

            let zones = try await server.json("zones/list", "{}")
            let defaultZone = (zones.body["zones"] as? [[String: Any]])?.first { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String == ZoneID.defaultZoneName }
            #expect(defaultZone != nil && defaultZone?["syncToken"] == nil, "no token to hand out for the default zone")
        }
    }

    @Test("record types beginning with cloudkit. and the zone-wide share's name are reserved")
    func reservedNames() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            for (name, type) in [("sys", "cloudkit.Foo"), ("sys2", "CloudKit.thing"), ("cloudkit.zoneshare", "Day")] {
                let answer = try await server.json("records/modify", object: [
                    "zoneID": ["zoneName": "Trips"], "operations": [createOperation(name, type: type)],
                ])
                #expect(items(answer.body).first?["serverErrorCode"] as? String == "BAD_REQUEST", "\(name) of \(type): \(answer.body)")
            }
            #expect(try await server.lookup(["sys", "sys2", "cloudkit.zoneshare"], zone: "Trips").allSatisfy { $0.record == nil })
        }
    }
}
