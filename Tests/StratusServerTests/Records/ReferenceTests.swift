import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// References and parents are enforced as CloudKit enforces them.
@Suite("fidelity: references and parents")
struct ReferenceTests {
    static func reference(_ target: String, _ action: String = "DELETE_SELF") -> [String: Any] {
        ["type": "REFERENCE", "value": ["recordName": target, "action": action]]
    }

    private func codes(_ operations: [[String: Any]], server: TestServer, atomic: Bool? = nil) async throws -> [String?] {
        try await server.itemCodes(operations, zone: "R", atomic: atomic)
    }

    @Test("deleting a record deletes its DELETE_SELF sources, transitively, in the same commit")
    func deleteSelfCascades() async throws {
        try await TestServer.run { server in
            try await server.createZone("R")
            // trip ← day (DELETE_SELF) ← photo (DELETE_SELF, in a list); note points with NONE.
            #expect(try await codes([
                createOperation("trip"),
                createOperation("day", fields: ["trip": ReferenceTests.reference("trip")]),
                createOperation("photo", fields: ["days": ["type": "REFERENCE_LIST", "value": [["recordName": "day", "action": "DELETE_SELF"]]]]),
                createOperation("note", fields: ["trip": ReferenceTests.reference("trip", "NONE")]),
            ], server: server) == [nil, nil, nil, nil])
            guard case .success(let before) = try await server.zoneChanges("R") else { throw TestFailure("no page") }
            #expect(try await codes([["operationType": "forceDelete", "record": ["recordName": "trip"]]], server: server) == [nil])
            let left = try await server.lookup(["trip", "day", "photo", "note"], zone: "R").map { $0.record != nil }
            #expect(left == [false, false, false, true])
            guard case .success(let after) = try await server.zoneChanges("R", token: before.syncToken) else { throw TestFailure("no page") }
            #expect(Set(after.records.filter { $0.deleted == true }.compactMap(\.recordName)) == ["trip", "day", "photo"])

            // A source re-pointed elsewhere no longer goes with its old target.
            #expect(try await codes([
                createOperation("a"), createOperation("b"), createOperation("s", fields: ["to": ReferenceTests.reference("a")]),
            ], server: server) == [nil, nil, nil])
            #expect(try await codes([["operationType": "forceUpdate", "record": ["recordName": "s", "fields": ["to": ReferenceTests.reference("b")]]]], server: server) == [nil])
            _ = try await codes([["operationType": "forceDelete", "record": ["recordName": "a"]]], server: server)
            #expect(try await server.lookup(["s"], zone: "R").first?.record != nil)
            _ = try await codes([["operationType": "forceDelete", "record": ["recordName": "b"]]], server: server)
            #expect(try await server.lookup(["s"], zone: "R").first?.record == nil)
        }
    }

    @Test("a parent must exist (or be saved in the same batch); deleting a parent leaves its children")
    func parentsExist() async throws {
        try await TestServer.run { server in
            try await server.createZone("R")
            #expect(try await codes([createOperation("orphan", parent: "nope")], server: server) == ["VALIDATING_REFERENCE_ERROR"])
            #expect(try await codes([createOperation("child", parent: "root"), createOperation("root")], server: server) == [nil, nil])
            #expect(try await codes([["operationType": "forceDelete", "record": ["recordName": "root"]]], server: server) == [nil])
            let child = try #require(try await server.lookup(["child"], zone: "R").first?.record)
            #expect(child.parent?.recordName == "root", "the child stays, pointing at nothing")
            // Re-saving it with the same parent is allowed; a new missing parent is not.
            #expect(try await codes([["operationType": "forceUpdate", "record": ["recordName": "child", "parent": ["recordName": "root"], "fields": ["n": ["value": 1]]]]], server: server) == [nil])
            #expect(try await codes([["operationType": "forceUpdate", "record": ["recordName": "child", "parent": ["recordName": "other"]]]], server: server) == ["VALIDATING_REFERENCE_ERROR"])
        }
    }
}
