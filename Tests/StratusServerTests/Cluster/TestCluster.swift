import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StratusCore
import StratusModel
import StratusServer
import StratusServerRun
import StratusServerTesting
import StratusStore
import StratusStorePostgres
import StratusStoreTesting
import Testing

/// Two Stratus servers on one PostgreSQL database, each on its own socket with its own store
/// connection pool and its own in-memory caches, as two `stratus serve --store` processes are.
/// They know each other only through the database (rows, and `LISTEN`/`NOTIFY` signals).
enum TestCluster {
    static let url = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipReason: Comment = "STRATUS_TEST_POSTGRES is not set: no PostgreSQL server for two instances (.ci/run starts one)"

    /// Runs `body` with instances A and B (B seeded by nothing: it shares A's credentials).
    static func run(_ body: @Sendable (TestServer, TestServer) async throws -> Void) async throws {
        guard let url else { throw TestFailure("STRATUS_TEST_POSTGRES is not set") }
        let scratch = try await ScratchDatabase.create(on: url, maximumConnections: 5)
        let second = PostgresStore(scratch.store.location, maximumConnections: 5)
        let blobs = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-cluster-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: blobs) }
        do {
            try await second.running { try await run(on: scratch, and: second, blobs: blobs, body) }
        } catch {
            await scratch.drop()
            throw error
        }
        await scratch.drop()
    }

    private static func run(
        on scratch: ScratchDatabase, and second: PostgresStore, blobs: URL, _ body: @Sendable (TestServer, TestServer) async throws -> Void
    ) async throws {
        let servicesA = try services(on: scratch.store, blobs: blobs)
        let servicesB = try services(on: second, blobs: blobs)
        let credentials = try await DevSeeder(identity: servicesA.identity).seed(previous: nil, serverURL: "http://127.0.0.1")
        var logger = Logger(label: "stratus-cluster-test")
        logger.logLevel = .warning
        let appA = try composition.application(servicesA, port: 0, logger: logger).application
        let appB = try composition.application(servicesB, port: 0, logger: logger).application
        try await appA.test(.live) { clientA in
            try await appB.test(.live) { clientB in
                try await body(
                    TestServer(client: clientA, credentials: credentials, blobDirectory: blobs, identity: servicesA.identity),
                    TestServer(client: clientB, credentials: credentials, blobDirectory: blobs, identity: servicesB.identity)
                )
            }
        }
    }

    /// Each instance is the same composition (Apple's limits) as any server.
    private static let composition = ServerComposition()

    private static func services(on store: PostgresStore, blobs: URL) throws -> StratusServices {
        try composition.services(store: store, blobDirectory: blobs, serverURL: nil, signals: store)
    }
}
