import Foundation
import StratusModel
import StratusServerTesting
import Testing

@Suite("change feeds over HTTP")
struct ChangesTests {
    @Test("zone changes return the latest version of each record, tombstones for deletes, in sequence order, paged")
    func zoneChangesCoalesceAndPage() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let names = (1...7).map { "r\($0)" }
            let created = try await server.modify(names.map { Records.create($0, caption: "v1") }, zone: "Trips")
            var tags: [String: String] = [:]
            for case .success(let record) in created { tags[record.recordName ?? ""] = record.recordChangeTag }

            // r2 twice, r5 once, r3 deleted.
            for (name, caption) in [("r2", "v2"), ("r5", "v2"), ("r2", "v3")] {
                var record = Records.destination(name, caption: caption)
                record.recordChangeTag = tags[name]
                let saved = try await server.modify([RecordOperation(.update, record)], zone: "Trips")
                tags[name] = try #require(saved.first?.record?.recordChangeTag)
            }
            var delete = Record(recordName: "r3")
            delete.recordChangeTag = tags["r3"]
            _ = try await server.modify([RecordOperation(.delete, delete)], zone: "Trips")

            let (pages, _) = try await server.allZoneChanges("Trips", limit: 2)
            #expect(pages.count == 4)
            #expect(pages.dropLast().allSatisfy { $0.moreComing && $0.records.count == 2 })
            #expect(pages.last?.moreComing == false)
            let records = pages.flatMap(\.records)
            #expect(records.map { $0.recordName ?? "" } == ["r1", "r4", "r6", "r7", "r5", "r2", "r3"])
            #expect(Set(records.compactMap(\.recordName)).count == records.count, "a record appeared twice")
            #expect(records.first { $0.recordName == "r2" }?.fields?["caption"] == .string("v3"))
            #expect(records.first { $0.recordName == "r5" }?.fields?["caption"] == .string("v2"))
            let tombstone = try #require(records.first { $0.recordName == "r3" })
            #expect(tombstone.deleted == true && tombstone.fields == nil)
            #expect(records.filter { $0.deleted != true }.allSatisfy { $0.recordChangeTag == tags[$0.recordName ?? ""] })
        }
    }

    @Test("a token returns only what changed after it; the token of the last page is current")
    func incrementalFromToken() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("a"), Records.create("b")], zone: "Trips")
            let first = try await server.allZoneChanges("Trips", limit: 200)
            #expect(first.pages.flatMap(\.records).count == 2)
            let empty = try await server.allZoneChanges("Trips", token: first.token, limit: 200)
            #expect(empty.pages.flatMap(\.records).isEmpty)

            _ = try await server.modify([RecordOperation(.forceUpdate, Records.destination("b", caption: "new"))], zone: "Trips")
            let next = try await server.allZoneChanges("Trips", token: first.token, limit: 200)
            #expect(next.pages.flatMap(\.records).map(\.recordName) == ["b"])

            // The legacy records/changes endpoint reads the same feed.
            let legacy = try await server.call(
                "records/changes", RecordChangesRequest(zoneID: ZoneID(zoneName: "Trips"), syncToken: first.token),
                expecting: RecordChangesResponse.self
            )
            #expect(legacy.records.map(\.recordName) == ["b"])
            #expect(legacy.syncToken == next.token)
        }
    }

    @Test("database changes list changed zones and deleted zones; deleting a zone removes its records")
    func databaseChanges() async throws {
        try await TestServer.run { server in
            try await server.createZone("A")
            try await server.createZone("B")
            try await server.createZone("C")
            _ = try await server.modify([Records.create("in-a")], zone: "A")
            let start = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self)
            #expect(Set(start.zones.map(\.zoneID.zoneName)).isSuperset(of: ["A", "B", "C"]))
            #expect(start.moreComing == false)

            let deleted = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, ZoneID(zoneName: "A"))]), expecting: ZonesResponse.self
            )
            guard case .success(let zone)? = deleted.zones.first else { throw TestFailure("zone A not deleted") }
            #expect(zone.deleted == true)
            _ = try await server.modify([Records.create("in-b")], zone: "B")

            let changes = try await server.call(
                "changes/database", DatabaseChangesRequest(syncToken: start.syncToken), expecting: DatabaseChangesResponse.self
            )
            #expect(changes.zones.map(\.zoneID.zoneName) == ["A", "B"])
            #expect(changes.zones.first?.deleted == true)
            #expect(changes.zones.last?.deleted == nil)
            #expect(changes.zones.allSatisfy { $0.zoneID.ownerRecordName == server.userRecordName("alice") })

            // Paging by one zone at a time reaches the same token.
            let page = try await server.call(
                "changes/database", DatabaseChangesRequest(syncToken: start.syncToken, resultsLimit: 1), expecting: DatabaseChangesResponse.self
            )
            #expect(page.zones.map(\.zoneID.zoneName) == ["A"] && page.moreComing)

            // The legacy zones/changes speaks metaSyncToken.
            let body = #"{"metaSyncToken":"\#(start.syncToken)"}"#
            let legacy = try await server.raw("zones/changes", body: .init(string: body)).decode(DatabaseChangesResponse.self)
            #expect(legacy.zones.map(\.zoneID.zoneName) == ["A", "B"])
            #expect(legacy.metaSyncToken == legacy.syncToken)

            let records = try await server.zoneChanges("A")
            guard case .failure(let error) = records else { throw TestFailure("deleted zone still has changes") }
            #expect(error.serverErrorCode == .zoneNotFound)
            let lookup = try await server.lookup(["in-a"], zone: "A")
            #expect(lookup.first?.error?.serverErrorCode == .zoneNotFound)
        }
    }

    @Test("a zone deleted and made again is listed once, as it is now; without a token, no deletion")
    func zonesOnceAsTheyAreNow() async throws {
        try await TestServer.run { server in
            func changes(_ token: String? = nil, limit: Int? = nil) async throws -> DatabaseChangesResponse {
                try await server.call("changes/database", DatabaseChangesRequest(syncToken: token, resultsLimit: limit), expecting: DatabaseChangesResponse.self)
            }
            func delete(_ name: String) async throws {
                _ = try await server.call(
                    "zones/modify", ModifyZonesRequest(operations: [.init(.delete, ZoneID(zoneName: name))]), expecting: ZonesResponse.self
                )
            }
            let start = try await changes().syncToken
            for _ in 0..<3 {
                try await server.createZone("Notes")
                try await delete("Notes")
            }
            try await server.createZone("Notes")
            try await server.createZone("Gone")
            try await delete("Gone")

            func ours(_ zones: [Zone]) -> [Zone] { zones.filter { ["Notes", "Gone"].contains($0.zoneID.zoneName) } }

            // Four lives of Notes: one live entry; Gone never shows without a token.
            let first = try await changes()
            #expect(ours(first.zones).map(\.zoneID.zoneName) == ["Notes"] && first.zones.allSatisfy { $0.deleted == nil }, "\(first.zones)")
            // Paged one zone at a time, the fetch lists no deletion either.
            var paged = try await changes(limit: 1)
            var pages = paged.zones
            while paged.moreComing {
                paged = try await changes(paged.syncToken, limit: 1)
                pages += paged.zones
            }
            #expect(ours(pages).map(\.zoneID.zoneName) == ["Notes"] && pages.allSatisfy { $0.deleted == nil }, "\(pages)")
            // Since a token: Notes made again is one change, Gone one deletion.
            let since = ours(try await changes(start).zones)
            #expect(since.map(\.zoneID.zoneName) == ["Notes", "Gone"], "\(since)")
            #expect(since.map(\.deleted) == [nil, true])

            try await delete("Notes")
            let deleted = ours(try await changes(first.syncToken).zones)
            #expect(deleted.map(\.zoneID.zoneName) == ["Notes"] && deleted.first?.deleted == true, "\(deleted)")
            #expect(ours(try await changes().zones).isEmpty)
        }
    }

    @Test("after compaction an older token is expired; a fetch without a token still works")
    func tokenExpiryAfterCompaction() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([Records.create("keep"), Records.create("drop")], zone: "Trips")
            let old = try await server.allZoneChanges("Trips", limit: 200).token
            var delete = Record(recordName: "drop")
            delete.recordChangeTag = created[1].record?.recordChangeTag
            _ = try await server.modify([RecordOperation(.delete, delete)], zone: "Trips")
            let beforeCompaction = try await server.allZoneChanges("Trips", token: old, limit: 200)
            #expect(beforeCompaction.pages.flatMap(\.records).first?.deleted == true)

            let compact = try await server.admin(
                "zones/compact",
                CompactZoneRequest(container: server.credentials.container, environment: .development, ownerRecordName: server.userRecordName("alice"), zoneName: "Trips")
            )
            #expect(compact.status == .ok, "\(compact.text)")

            guard case .failure(let expired) = try await server.zoneChanges("Trips", token: old) else {
                throw TestFailure("an expired token was accepted")
            }
            #expect(expired.serverErrorCode == .badRequest)
            #expect(expired.nativeErrorCode == CKErrorCodeNumber.changeTokenExpired)
            #expect(expired.reason.contains("expired"))

            let legacy = try await server.post("records/changes", RecordChangesRequest(zoneID: ZoneID(zoneName: "Trips"), syncToken: old))
            #expect(legacy.status == .badRequest)
            #expect(legacy.errorBody?.nativeErrorCode == CKErrorCodeNumber.changeTokenExpired)

            let fresh = try await server.allZoneChanges("Trips", limit: 200)
            #expect(fresh.pages.flatMap(\.records).map(\.recordName) == ["keep"])
            // The token handed out after compaction keeps working.
            let later = try await server.allZoneChanges("Trips", token: fresh.token, limit: 200)
            #expect(later.pages.flatMap(\.records).isEmpty)
        }
    }

    @Test("tokens of another kind or garbage are rejected with BAD_REQUEST")
    func badTokens() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let database = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self)
            guard case .failure(let wrongKind) = try await server.zoneChanges("Trips", token: database.syncToken) else {
                throw TestFailure("a database token was accepted as a zone token")
            }
            #expect(wrongKind.serverErrorCode == .badRequest)
            let garbage = try await server.post("changes/database", DatabaseChangesRequest(syncToken: "not-a-token"))
            #expect(garbage.status == .badRequest)
            let zeroLimit = try await server.zoneChanges("Trips", limit: 0)
            guard case .failure(let limitError) = zeroLimit else { throw TestFailure("resultsLimit 0 accepted") }
            #expect(limitError.serverErrorCode == .badRequest)
        }
    }
}
