import Foundation
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres

/// The store a test server runs on: SQLite in the test's directory by default, or PostgreSQL
/// when `STRATUS_TEST_STORE=postgres` and `STRATUS_TEST_POSTGRES` names a server (`.ci/run`
/// runs the server and integration suites once that way). The PostgreSQL database is named
/// after the directory, so a test that restarts its server on the same directory finds its
/// data again. For test targets only.
package enum TestStore {
    /// Whether this test process runs its servers on PostgreSQL.
    package static var usesPostgres: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["STRATUS_TEST_STORE"] == "postgres" && environment["STRATUS_TEST_POSTGRES"]?.isEmpty == false
    }

    /// Opens (and migrates) the store for a server whose data lives in `directory`; `file` is the
    /// SQLite file's name there. `close` ends the store and, with `drop`, removes its database.
    package static func open(directory: URL, file: String) async throws -> (store: any CompleteStore, close: @Sendable (_ drop: Bool) async -> Void) {
        guard usesPostgres, let url = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"] else {
            let store = try SQLiteStore(path: directory.appendingPathComponent(file).path)
            try await store.migrate()
            return (store, { _ in })
        }
        let scratch = try await ScratchDatabase.create(on: url, name: databaseName(for: directory), reuse: true, maximumConnections: 5)
        return (scratch.store, { drop in
            if drop { await scratch.drop() } else { await scratch.stop() }
        })
    }

    /// A database name that is the same for the same directory (FNV-1a of its path).
    static func databaseName(for directory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in directory.standardizedFileURL.path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return "stratus_test_" + String(hash, radix: 16)
    }
}
