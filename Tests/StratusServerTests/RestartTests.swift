import Foundation
import StratusModel
import StratusServerTesting
import Testing

@Suite("durability")
struct RestartTests {
    @Test("records, zones, schema and credentials survive a restart on the same data directory")
    func dataSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (credentials, tag, token) = try await TestServer.run(directory: directory) { server in
            try await server.createZone("Trips")
            let saved = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            let token = try await server.allZoneChanges("Trips", limit: 200).token
            return (server.credentials, saved.first?.record?.recordChangeTag, token)
        }
        try await TestServer.run(directory: directory, previous: credentials) { server in
            #expect(server.credentials == credentials, "credentials changed across the restart")
            let found = try await server.lookup(["paris"], zone: "Trips")
            #expect(found.first?.record?.fields?["caption"] == .string("Paris"))
            #expect(found.first?.record?.recordChangeTag == tag)
            let after = try await server.allZoneChanges("Trips", token: token, limit: 200)
            #expect(after.pages.flatMap(\.records).isEmpty)
            // The schema learned before the restart still types bare values.
            let wrong = try await server.modify(
                [RecordOperation(.create, Record(recordName: "x", recordType: "Destination", fields: ["caption": .int64(1)]))], zone: "Trips"
            )
            #expect(wrong.first?.error?.serverErrorCode == .badRequest)
        }
    }

    @Test("the console's timeline survives a restart, before what happens after it")
    func timelineSurvivesRestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = try await TestServer.run(directory: directory) { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            #expect(try await eventually { try await server.activity().contains { $0.recordNames == ["paris"] } })
            return server.credentials
        }
        try await TestServer.run(directory: directory, previous: credentials) { server in
            #expect(try await eventually { try await server.activity().contains { $0.recordNames == ["paris"] } }, "kept across the restart")
            _ = try await server.modify([Records.create("rome", caption: "Rome")], zone: "Trips")
            #expect(try await eventually { try await server.activity().first?.recordNames == ["rome"] })
            let names = try await server.activity().compactMap(\.recordNames.first)
            #expect(Array(names.prefix(2)) == ["rome", "paris"], "newest first: the restored entry stays behind the new one")
        }
    }
}

extension TestServer {
    /// The admin API's timeline, newest first.
    func activity() async throws -> [ActivityEntry] {
        try await admin("activity", method: .get).decode(ActivityResponse.self).entries
    }
}
