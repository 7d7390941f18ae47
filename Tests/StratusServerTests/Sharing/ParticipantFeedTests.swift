import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// A participant's feed follows what the share covers (semantics §3.1, §3.3, §9.1).
@Suite("fidelity: a participant's feed follows the share")
struct ParticipantFeedTests {
    @Test("records moved under the shared root arrive with their subtree; records moved out leave as tombstones")
    func feedFollowsCoverage() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readOnly)])
            _ = try await server.accept(try #require(share.shortGUID), as: "bob")
            _ = try await server.modify([
                Records.create("x"), RecordOperation(.create, Records.destination("y", caption: "under x").child(of: "x")),
            ], zone: "Trips")
            guard case .success(let first) = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob") else {
                throw TestFailure("no page")
            }
            #expect(!TestServer.liveNames(.success(first)).contains("x"))
            let tagOfY = try #require(try await server.lookup(["y"], zone: "Trips").first?.record?.recordChangeTag)

            // alice moves x (with its child y) under the shared root: both reach bob.
            _ = try await server.modify([RecordOperation(.forceUpdate, Record(recordName: "x", recordType: "Destination").child(of: "root"))], zone: "Trips")
            let entered = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob", token: first.syncToken)
            #expect(TestServer.liveNames(entered) == ["x", "y"])
            #expect(entered.value?.records.first { $0.recordName == "y" }?.recordChangeTag == tagOfY, "y itself did not change")

            // alice takes child-1 out of the hierarchy (replaced without a parent): bob gets a tombstone.
            _ = try await server.modify([RecordOperation(.forceReplace, Records.destination("child-1", caption: "mine again"))], zone: "Trips")
            let left = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob", token: entered.value?.syncToken)
            let tombstones = left.value?.records.filter { $0.deleted == true }.compactMap(\.recordName)
            #expect(tombstones == ["child-1"], "\(left)")
            #expect(left.value?.records.first?.fields == nil, "a tombstone carries no fields")
            // And nothing more after that.
            let quiet = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob", token: left.value?.syncToken)
            #expect(quiet.value?.records.isEmpty == true)
            // The owner's feed is as before: x, y's move shows x only (y did not change).
            #expect(try await server.sharedLookup(["child-1"], zone: "Trips", of: "alice", as: "bob").first?.record == nil)
        }
    }
}
