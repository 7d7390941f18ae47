import Foundation
import StratusStore
import StratusStorePostgres
import StratusStoreTesting
import Testing

/// A PostgreSQL database of its own for one test, on the server `STRATUS_TEST_POSTGRES` names
/// (`.ci/run` starts one), dropped afterwards. Without the variable the PostgreSQL tests are
/// skipped, saying why.
enum TestDatabase {
    static let url = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }
    static let skipReason: Comment = "STRATUS_TEST_POSTGRES is not set: no PostgreSQL server to test against (.ci/run starts one)"

    /// Runs `body` with a migrated store on a fresh database.
    static func withStore<T: Sendable>(_ body: (PostgresStore) async throws -> T) async throws -> T {
        guard let url else { throw StoreError(.invalid, "STRATUS_TEST_POSTGRES is not set") }
        let scratch = try await ScratchDatabase.create(on: url)
        do {
            let result = try await body(scratch.store)
            await scratch.drop()
            return result
        } catch {
            await scratch.drop()
            throw error
        }
    }
}
