import Foundation
import PostgresNIO
import StratusStore
import StratusStorePostgres

/// A database of its own on a PostgreSQL server, for one test or benchmark run: created (and
/// migrated) from the server's URL, dropped when done. Tests and `stratus-bench` use it; a
/// server never does.
package struct ScratchDatabase: Sendable {
    /// The server's URL (its database is where `CREATE DATABASE` runs).
    package let server: PostgresLocation
    /// The migrated store on the new database, running (a test runs no service group).
    package let store: PostgresStore
    private let running: Task<Void, Never>

    /// Creates the database `name` (a fresh random name by default) and migrates it. With
    /// `reuse`, an existing database of that name is kept as it is (a restarted server's data).
    /// `maximumConnections` sizes the store's pool (tests run many stores on one server at once);
    /// `migrate: false` leaves the database empty (a migration test loads an old schema first).
    package static func create(
        on serverURL: String, name: String? = nil, reuse: Bool = false, maximumConnections: Int = 20, migrate: Bool = true
    ) async throws(StoreError) -> ScratchDatabase {
        let server = try PostgresLocation(url: serverURL)
        let name = name ?? "stratus_scratch_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        guard name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else {
            throw StoreError(.invalid, "a scratch database's name is lower-case letters, digits and _")
        }
        let admin = PostgresStore(server, maximumConnections: 1)
        do {
            try await admin.running {
                let exists = try await admin.first(admin.query("SELECT 1::INT FROM pg_database WHERE datname = \(name)")) { _ in true } ?? false
                if exists && !reuse {
                    throw StoreError(.duplicate, "database \(name) exists")
                } else if !exists {
                    try await admin.execute(unsafeSQL: "CREATE DATABASE \(name)")
                }
            }
        } catch {
            throw error as? StoreError ?? StoreError(.failure, "\(error)")
        }
        var location = server
        location.database = name
        let store = PostgresStore(location, maximumConnections: maximumConnections)
        let running = Task { await store.run() }
        do {
            if migrate { try await store.migrate() }
        } catch {
            running.cancel()
            throw error
        }
        return ScratchDatabase(server: server, store: store, running: running)
    }

    /// Stops the store; its database stays (a restarted server's data).
    package func stop() async {
        running.cancel()
        await running.value
    }

    /// Stops the store and drops its database (connections still open are ended).
    package func drop() async {
        await stop()
        let admin = PostgresStore(server, maximumConnections: 1)
        await admin.running {
            try? await admin.execute(unsafeSQL: "DROP DATABASE IF EXISTS \(store.location.database) WITH (FORCE)")
        }
    }
}
