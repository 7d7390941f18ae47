import Foundation
import GRDB
import StratusModel
import StratusServerTesting
import StratusStoreTesting
import Testing

/// A store failure reaches the client as CloudKit's "Internal error" and nothing more; the log
/// keeps its cause beside the request's ID (the `uuid` the client got).
@Suite struct InternalErrorTests {
    @Test(.enabled(if: !TestStore.usesPostgres, "breaks the SQLite file under the server"))
    func aStoreFailureIsLoggedWithItsCauseAndRequestIDAndNotShownToTheClient() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-internal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let recorder = LogRecorder()
        try await TestServer.run(directory: directory, logger: recorder.logger()) { server in
            // A table the subscriptions endpoint reads goes missing underneath the server.
            let database = try DatabaseQueue(path: directory.appendingPathComponent("stratus.sqlite").path)
            try await database.write { db in try db.execute(sql: "DROP TABLE subscriptions") }
            try database.close()

            let response = try await server.raw("subscriptions/list", body: nil, method: .get)
            #expect(response.status.code == 500)
            let body = try #require(response.errorBody)
            #expect(body.serverErrorCode == .internalError && body.reason == "Internal error", "nothing of the cause: \(response.text)")
            let line = try #require(recorder.recorded.first { $0.message == "internal error" })
            #expect(line.metadata["request_id"] == body.uuid)
            #expect(line.metadata["cause"]?.contains("no such table: subscriptions") == true, "\(line.metadata)")
        }
    }
}
