import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Values a client may send but CloudKit would never store: locations off the globe, a record
/// that is its own ancestor, references that require a record the zone does not hold.
@Suite("hardening: invalid values are refused per item and change nothing")
struct InvalidValueTests {
    private func codes(_ operations: [[String: Any]], server: TestServer, atomic: Bool? = nil) async throws -> [String?] {
        try await server.itemCodes(operations, zone: "H", atomic: atomic)
    }

    @Test("a LOCATION off the globe is refused")
    func locations() async throws {
        try await TestServer.run { server in
            try await server.createZone("H")
            for (latitude, longitude) in [(1_000.0, 0.0), (-90.5, 0.0), (0.0, 180.5)] {
                let location: [String: Any] = ["type": "LOCATION", "value": ["latitude": latitude, "longitude": longitude]]
                #expect(try await codes([createOperation("loc", type: "Pl", fields: ["where": location])], server: server) == ["BAD_REQUEST"])
            }
            let list: [String: Any] = ["type": "LOCATION_LIST", "value": [["latitude": 1, "longitude": 2], ["latitude": 91, "longitude": 2]]]
            #expect(try await codes([createOperation("locs", type: "Pl", fields: ["stops": list])], server: server) == ["BAD_REQUEST"])
            let edge: [String: Any] = ["type": "LOCATION", "value": ["latitude": -90, "longitude": 180]]
            #expect(try await codes([createOperation("pole", type: "Pl", fields: ["where": edge])], server: server) == [nil])
            #expect(try await server.lookup(["loc", "locs"], zone: "H").allSatisfy { if case .failure = $0 { true } else { false } })
        }
    }

    @Test("parent cycles are refused: in one batch, in any order, and through stored records")
    func parentCycles() async throws {
        try await TestServer.run { server in
            try await server.createZone("H")
            #expect(try await codes([createOperation("self", parent: "self")], server: server) == ["BAD_REQUEST"])
            let loop = try await codes([
                createOperation("ca", parent: "cc"), createOperation("cb", parent: "ca"), createOperation("cc", parent: "cb"),
            ], server: server, atomic: false)
            #expect(loop == ["BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST"])

            // A chain stored a → b → c; making a the child of c would close a loop.
            #expect(try await codes([
                createOperation("c", parent: "b"), createOperation("b", parent: "a"), createOperation("a"),
            ], server: server) == [nil, nil, nil])
            let closing = try await codes([["operationType": "forceUpdate", "record": ["recordName": "a", "parent": ["recordName": "c"]]]], server: server)
            #expect(closing == ["BAD_REQUEST"])
            // Moving c out from under b first, in the same batch, makes it legal.
            let moved = try await codes([
                ["operationType": "forceUpdate", "record": ["recordName": "a", "parent": ["recordName": "c"]]],
                ["operationType": "forceReplace", "record": ["recordName": "c", "recordType": "T"]],
            ], server: server)
            #expect(moved == [nil, nil])
        }
    }

    @Test("a DELETE_SELF or VALIDATE reference to a missing record answers VALIDATING_REFERENCE_ERROR")
    func references() async throws {
        try await TestServer.run { server in
            try await server.createZone("H")
            func reference(_ target: String, _ action: String) -> [String: Any] {
                ["type": "REFERENCE", "value": ["recordName": target, "action": action]]
            }
            for action in ["DELETE_SELF", "VALIDATE"] {
                let refused = try await codes([createOperation("ref", fields: ["to": reference("nobody-home", action)])], server: server)
                #expect(refused == ["VALIDATING_REFERENCE_ERROR"], "\(action)")
            }
            #expect(try await codes([createOperation("loose", fields: ["to": reference("nobody-home", "NONE")])], server: server) == [nil])
            // The target saved later in the same batch counts as existing.
            #expect(try await codes([
                createOperation("child", fields: ["to": reference("target", "DELETE_SELF")]), createOperation("target"),
            ], server: server) == [nil, nil])
            // A target deleted in the same batch does not.
            let orphaned = try await codes([
                ["operationType": "forceDelete", "record": ["recordName": "target"]],
                createOperation("late", fields: ["to": reference("target", "VALIDATE")]),
            ], server: server, atomic: false)
            #expect(orphaned == [nil, "VALIDATING_REFERENCE_ERROR"])
        }
    }
}
