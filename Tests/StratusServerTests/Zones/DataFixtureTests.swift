import Foundation
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// Test fixtures through the admin API: a container environment's records exported as JSON, its
/// data wiped (one account's, or everyone's), and the export imported back.
@Suite struct DataFixtureTests {
    @Test func exportResetAndImportRoundTripsRecordsZonesAndParents() async throws {
        try await TestServer.run { server in
            let container = DevSeeder.container
            try await server.createZone("Trips")
            var day = Records.destination("day1", caption: "Day one")
            day.parent = RecordPointer(recordName: "trip")
            _ = try await server.modify([RecordOperation(.create, day), Records.create("trip", caption: "Lisbon")], zone: "Trips")
            _ = try await server.modify([Records.create("note", caption: "in the default zone")], zone: ZoneID.defaultZoneName)
            try await server.createZone("Bobs", as: "bob")
            _ = try await server.modify([Records.create("bobs", caption: "bob's")], zone: "Bobs", as: "bob")
            let publicRecord = try await server.post(
                "records/modify", ModifyRecordsRequest(operations: [Records.create("poster", caption: "public")]), database: "public"
            )
            #expect(publicRecord.status == .ok, "\(publicRecord.text)")

            let exported = try await server.admin("export?container=\(container)&environment=development", method: .get)
            #expect(exported.status == .ok, "\(exported.text)")
            let export = try exported.decode(DataExport.self)
            let alice = try #require(export.databases.first { $0.ownerRecordName == server.userRecordName("alice") })
            #expect(Set(alice.zones.map(\.zoneName)) == ["Trips", ZoneID.defaultZoneName])
            #expect(alice.zones.first { $0.zoneName == "Trips" }?.records.count == 2)
            #expect(export.databases.contains { $0.scope == .public && $0.zones.first?.records.first?.recordName == "poster" })

            // Bob's data only, then everyone's.
            let bobOnly = try await server.admin("reset", DataResetRequest(container: container, environment: .development, userRecordName: server.userRecordName("bob")))
            #expect(try bobOnly.decode(DataResetResponse.self).zonesDeleted == 1, "\(bobOnly.text)")
            #expect(try await server.lookup(["trip"], zone: "Trips").first?.value != nil, "alice's data stays")
            let everyone = try await server.admin("reset", DataResetRequest(container: container, environment: .development))
            let wiped = try everyone.decode(DataResetResponse.self)
            #expect(wiped.zonesDeleted == 1 && wiped.recordsDeleted == 2, "Trips; the default zone's note and the public poster: \(wiped)")
            let zones = try await server.call("zones/list", EmptyBody(), expecting: ZonesResponse.self)
            #expect(zones.zones.compactMap(\.value?.zoneID.zoneName) == [ZoneID.defaultZoneName])

            let imported = try await server.admin("import", export)
            let result = try imported.decode(DataImportResponse.self)
            #expect(result.errors.isEmpty && result.recordsSaved == 5 && result.zonesCreated == 2, "\(imported.text)")
            let back = try await server.lookup(["trip", "day1"], zone: "Trips")
            #expect(back.map { $0.value?.fields?["caption"] } == [.string("Lisbon"), .string("Day one")])
            #expect(back.last?.value?.parent?.recordName == "trip")
            #expect(try await server.lookup(["bobs"], zone: "Bobs", as: "bob").first?.value != nil)
        }
    }

    @Test func aResetOfAnUnknownAccountOrContainerChangesNothing() async throws {
        try await TestServer.run { server in
            let unknownAccount = try await server.admin("reset", DataResetRequest(container: DevSeeder.container, environment: .development, userRecordName: "_nobody"))
            #expect(unknownAccount.status == .notFound, "\(unknownAccount.text)")
            let unknownContainer = try await server.admin("export?container=iCloud.nowhere", method: .get)
            #expect(unknownContainer.status == .notFound)
        }
    }
}
