import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// What a device meets in a zone its user purged or lost to an encrypted-data reset: CloudKit
/// answers `userDeletedZone` (nativeErrorCode 28) and a `zoneNotFound` marked with
/// CKErrorUserDidResetEncryptedDataKey, not the plain ZONE_NOT_FOUND of a zone an app deleted.
@Suite struct ZoneResetErrorTests {
    static func reset(_ zone: String, _ reason: ZoneDeletionReason, on server: TestServer) async throws {
        let request = ZoneResetRequest(
            container: DevSeeder.container, environment: .development, userRecordName: server.userRecordName("alice"),
            zoneName: zone, reason: reason
        )
        let response = try await server.admin("zones/reset", request)
        #expect(response.status == .ok, "\(response.text)")
    }

    @Test func purgedAndResetZonesAnswerWithWhyTheyWent() async throws {
        try await TestServer.run { server in
            for name in ["Purged", "Reset", "Gone"] {
                try await server.createZone(name)
                _ = try await server.modify([Records.create("r1")], zone: name)
            }
            try await Self.reset("Purged", .purged, on: server)
            try await Self.reset("Reset", .encryptedDataReset, on: server)
            try await Self.reset("Gone", .deleted, on: server)
            let write = [RecordOperation(.forceUpdate, Records.destination("r1", caption: "again"))]

            // Purged: ZONE_NOT_FOUND with nativeErrorCode 28 on writes, lookups, changes and queries.
            let purgedWrite = try #require(try await server.modify(write, zone: "Purged").first?.error)
            #expect(purgedWrite.serverErrorCode == .zoneNotFound && purgedWrite.nativeErrorCode == 28, "\(purgedWrite)")
            #expect(purgedWrite.userDidResetEncryptedData == nil)
            #expect(try await server.lookup(["r1"], zone: "Purged").first?.error?.nativeErrorCode == 28)
            guard case .failure(let purgedChanges) = try await server.zoneChanges("Purged") else { throw TestFailure("changes answered") }
            #expect(purgedChanges.serverErrorCode == .zoneNotFound && purgedChanges.nativeErrorCode == 28)
            let query = try await server.post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Destination"), zoneID: ZoneID(zoneName: "Purged"))
            )
            #expect(query.status == .notFound && query.errorBody?.nativeErrorCode == 28, "\(query.text)")
            let zones = try await server.call(
                "zones/lookup", LookupZonesRequest(zones: [ZoneID(zoneName: "Purged")]), expecting: ZonesResponse.self
            )
            #expect(zones.zones.first?.error?.nativeErrorCode == 28)

            // Encrypted-data reset: ZONE_NOT_FOUND with the marker (and no nativeErrorCode 28).
            let resetWrite = try #require(try await server.modify(write, zone: "Reset").first?.error)
            #expect(resetWrite.serverErrorCode == .zoneNotFound && resetWrite.userDidResetEncryptedData == true, "\(resetWrite)")
            #expect(resetWrite.nativeErrorCode == nil)
            let resetChanges = try await server.post("records/changes", RecordChangesRequest(zoneID: ZoneID(zoneName: "Reset")))
            #expect(resetChanges.status == .notFound && resetChanges.errorBody?.userDidResetEncryptedData == true, "\(resetChanges.text)")

            // Deleted by an app: the plain error, no extras.
            let goneWrite = try #require(try await server.modify(write, zone: "Gone").first?.error)
            #expect(goneWrite.serverErrorCode == .zoneNotFound && goneWrite.nativeErrorCode == nil && goneWrite.userDidResetEncryptedData == nil)

            // Created again, the zone works normally.
            try await server.createZone("Purged")
            #expect(try await server.modify(write, zone: "Purged").first?.record != nil)
            guard case .success = try await server.zoneChanges("Purged") else { throw TestFailure("re-created zone has no changes") }
            // And a zone that never existed is plain ZONE_NOT_FOUND.
            let never = try #require(try await server.modify(write, zone: "Never").first?.error)
            #expect(never.serverErrorCode == .zoneNotFound && never.nativeErrorCode == nil && never.userDidResetEncryptedData == nil)
        }
    }
}
