import Foundation
import PostgresNIO
import StratusStore
import StratusStorePostgres
import Testing

/// A PostgreSQL database of its own for one test: created on the server `STRATUS_TEST_POSTGRES`
/// names (`.ci/run` starts one), dropped afterwards. Without the variable the PostgreSQL tests are
/// skipped, saying why.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipReason: Comment = "STRATUS_TEST_POSTGRES is not set: no PostgreSQL server to test against (.ci/run starts one)"

    /// Runs `body` with a migrated store on a fresh database.
    static func withStore<T: Sendable>(_ body: (PostgresStore) async throws -> T) async throws -> T {
        guard let url else { throw StoreError(.invalid, "STRATUS_TEST_POSTGRES is not set") }
        let server = try PostgresLocation(url: url)
        let name = "stratus_test_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        let admin = PostgresStore(server, maximumConnections: 1)
        defer { admin.close() }
        try await admin.execute(unsafeSQL: "CREATE DATABASE \(name)")
        var location = server
        location.database = name
        let store = PostgresStore(location)
        do {
            try await store.migrate()
            let result = try await body(store)
            store.close()
            try await admin.execute(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")
            return result
        } catch {
            store.close()
            try? await admin.execute(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
    }
}
