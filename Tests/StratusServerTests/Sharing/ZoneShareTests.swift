import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Zone-wide shares (`cloudkit.zoneshare`): every record of the zone is shared.
@Suite("Sharing: zone-wide shares")
struct ZoneShareTests {
    @Test("the same walk with a zone-wide share: every record visible, writes anywhere, read-only, leave, stop")
    func zoneShareWalk() async throws {
        try await TestServer.run { server in
            try await server.createZone("Family")
            let created = try await server.modify([
                Records.create("a", caption: "A"), Records.create("b", caption: "B"), Records.create("c", caption: "C"),
                TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readWrite)]),
            ], zone: "Family")
            let share = try #require(created.last?.record)
            let guid = try #require(share.shortGUID)
            #expect(share.recordName == ShareNames.zoneWideShare)

            let metadata = try #require(try await server.resolve(guid, as: "bob").value)
            #expect(metadata.participantStatus == .invited)
            #expect(metadata.rootRecordName == nil)
            #expect(metadata.rootRecord == nil)
            #expect(try await server.accept(guid, as: "bob").value?.participantStatus == .accepted)
            let database = try await server.sharedDatabaseChanges(as: "bob")
            #expect(database.zones.map(\.zoneID) == [server.zoneID("Family", of: "alice")])
            let zones = try await server.call("zones/list", EmptyBody(), database: "shared", as: "bob", expecting: ZonesResponse.self)
            #expect(zones.zones.compactMap(\.value?.zoneID) == [server.zoneID("Family", of: "alice")])
            let visible = try await server.sharedZoneChanges("Family", of: "alice", as: "bob")
            #expect(TestServer.liveNames(visible) == ["a", "b", "c", ShareNames.zoneWideShare])
            let query = QueryRecordsRequest(query: Query(recordType: "Destination"), zoneID: server.zoneID("Family", of: "alice"))
            let queried = try await server.call("records/query", query, database: "shared", as: "bob", expecting: QueryRecordsResponse.self)
            #expect(queried.records.compactMap(\.record?.recordName).sorted() == ["a", "b", "c"])

            // READ_WRITE on a zone share: a new record needs no parent.
            let made = try await server.sharedModify([Records.create("d", caption: "by bob")], zone: "Family", of: "alice", as: "bob")
            #expect(made.first?.record?.created?.userRecordName == server.userRecordName("bob"))
            #expect(try await server.lookup(["d"], zone: "Family").first?.record != nil)

            // READ_ONLY: denied, nothing changes.
            let current = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Family").first?.record)
            _ = try await server.modify([TestServer.updateShare(current, participants: [server.invite("bob", .readOnly)])], zone: "Family")
            let denied = try await server.sharedModify([Records.create("e", caption: "no")], zone: "Family", of: "alice", as: "bob")
            #expect(denied.first?.error?.serverErrorCode == .accessDenied)
            #expect(try await server.lookup(["e"], zone: "Family").first?.error?.serverErrorCode == .notFound)
            #expect(try await server.sharedLookup(["a"], zone: "Family", of: "alice", as: "bob").first?.record != nil)

            // bob leaves; alice sees him removed.
            _ = try await server.sharedModify(
                [RecordOperation(.forceDelete, Record(recordName: ShareNames.zoneWideShare))], zone: "Family", of: "alice", as: "bob"
            )
            let left = try await server.sharedDatabaseChanges(as: "bob", token: database.syncToken)
            #expect(left.zones.first?.deleted == true)
            let owner = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Family").first?.record)
            #expect(owner.participants?.last?.acceptanceStatus == .removed)

            // A second zone share of the same zone is refused.
            let second = try await server.modify(
                [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [])], zone: "Family"
            )
            #expect(second.first?.error?.serverErrorCode == .exists)
        }
    }

    @Test("stopping a zone share and sharing again; the owner deleting a shared zone reports it deleted")
    func stopReshareAndDeleteZone() async throws {
        try await TestServer.run { server in
            try await server.createZone("Family")
            let created = try await server.modify([
                Records.create("a"),
                TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readWrite)]),
            ], zone: "Family")
            let guid = try #require(created.last?.record?.shortGUID)
            _ = try await server.accept(guid, as: "bob")
            let first = try await server.sharedDatabaseChanges(as: "bob")
            let share = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Family").first?.record)
            _ = try await server.modify([RecordOperation(.delete, share)], zone: "Family")
            let stopped = try await server.sharedDatabaseChanges(as: "bob", token: first.syncToken)
            #expect(stopped.zones.first?.deleted == true)
            #expect(try await server.lookup(["a"], zone: "Family").first?.record != nil)

            let again = try await server.modify(
                [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readOnly)])], zone: "Family"
            )
            let newGUID = try #require(again.first?.record?.shortGUID)
            #expect(try await server.accept(newGUID, as: "bob").value?.participantStatus == .accepted)
            let database = try await server.sharedDatabaseChanges(as: "bob", token: stopped.syncToken)
            #expect(database.zones.first?.deleted == nil)
            #expect(TestServer.liveNames(try await server.sharedZoneChanges("Family", of: "alice", as: "bob")) == ["a", ShareNames.zoneWideShare])
            _ = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, ZoneID(zoneName: "Family"))]), as: "alice",
                expecting: ZonesResponse.self
            )
            let feed = try await server.sharedDatabaseChanges(as: "bob", token: database.syncToken)
            #expect(feed.zones.first?.deleted == true)
            #expect(try await server.resolve(newGUID, as: "bob").error?.serverErrorCode == .notFound)
            #expect(try await server.sharedLookup(["a"], zone: "Family", of: "alice", as: "bob").first?.error?.serverErrorCode == .zoneNotFound)
        }
    }
}

