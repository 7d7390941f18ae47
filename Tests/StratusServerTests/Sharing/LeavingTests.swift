import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Leaving a share is a write like any other (semantics §2.5, §3.4, §5.4).
@Suite("fidelity: leaving a share")
struct LeavingTests {
    @Test("a participant's delete of the share obeys the batch: atomicity and the change tag")
    func leavingIsAWrite() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            _ = try await server.accept(try #require(share.shortGUID), as: "bob")
            let tag = try #require(try await server.sharedLookup(["share-1"], zone: "Trips", of: "alice", as: "bob").first?.record?.recordChangeTag)

            // In an atomic batch with a write that fails, bob does not leave.
            let failed = try await server.sharedModify([
                RecordOperation(.delete, Record(recordName: "share-1", recordChangeTag: tag)),
                RecordOperation(.update, Record(recordName: "root", recordChangeTag: "stale", fields: ["caption": .string("x")])),
            ], zone: "Trips", of: "alice", as: "bob")
            #expect(failed.map { $0.error?.serverErrorCode } == [.atomicError, .conflict])
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.record != nil)

            // A delete needs the share's tag: a stale one is a CONFLICT, none is BAD_REQUEST.
            let stale = try await server.sharedModify([RecordOperation(.delete, Record(recordName: "share-1", recordChangeTag: "stale"))], zone: "Trips", of: "alice", as: "bob")
            #expect(stale.first?.error?.serverErrorCode == .conflict)
            let untagged = try await server.sharedModify([RecordOperation(.delete, Record(recordName: "share-1"))], zone: "Trips", of: "alice", as: "bob")
            #expect(untagged.first?.error?.serverErrorCode == .badRequest)
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.record != nil)

            let left = try await server.sharedModify([RecordOperation(.delete, Record(recordName: "share-1", recordChangeTag: tag))], zone: "Trips", of: "alice", as: "bob")
            #expect(left.first?.record?.deleted == true)
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.record == nil)
            let owners = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            #expect(owners.participants?.first { $0.userIdentity?.userRecordName == server.userRecordName("bob") }?.acceptanceStatus == .removed)
        }
    }

    @Test("a participant's zones/modify delete of a shared zone leaves every share in it")
    func deletingASharedZoneLeaves() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            _ = try await server.accept(try #require(share.shortGUID), as: "bob")
            let before = try await server.sharedDatabaseChanges(as: "bob")
            let answer = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, server.zoneID("Trips", of: "alice"))]),
                database: "shared", as: "bob", expecting: ZonesResponse.self
            )
            #expect(answer.zones.first?.value?.deleted == true, "\(answer)")
            #expect(try await server.sharedDatabaseChanges(as: "bob", token: before.syncToken).zones.first?.deleted == true)
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.record == nil)
            // alice's zone, records and share are untouched, and carol's zones/modify finds nothing.
            #expect(try await server.lookup(["root", "child-1", "share-1"], zone: "Trips").allSatisfy { $0.record != nil })
            let carol = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, server.zoneID("Trips", of: "alice"))]),
                database: "shared", as: "carol", expecting: ZonesResponse.self
            )
            #expect(carol.zones.first?.error?.serverErrorCode == .zoneNotFound)
        }
    }
}
