import Foundation
import ServiceLifecycle
import StratusStore
import StratusStoreSQLite

/// The store a server runs on, opened: what it is (said without any password), the service that
/// runs it (PostgreSQL's pool, signals and drains; none for SQLite) and what must happen before
/// the server serves (PostgreSQL's migrations, once its service runs). A ``ServerRun`` opens the
/// SQLite store of its data directory unless given another; `stratus serve` opens PostgreSQL
/// (its `StoreChoice`), so nothing that only runs SQLite links PostgresNIO.
package struct OpenedStore: Sendable {
    package let store: any CompleteStore
    package let description: String
    package let service: (any Service)?
    package let prepare: @Sendable () async throws -> Void
    /// Whether other instances share the store, and with it the data directory.
    package let shared: Bool

    package init(
        store: any CompleteStore, description: String, service: (any Service)?, shared: Bool, prepare: @escaping @Sendable () async throws -> Void
    ) {
        self.store = store
        self.description = description
        self.service = service
        self.shared = shared
        self.prepare = prepare
    }

    /// The SQLite store of a data directory (`stratus.sqlite`), migrated.
    package static func sqlite(in directory: URL) async throws -> OpenedStore {
        let path = directory.appendingPathComponent("stratus.sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        return OpenedStore(store: store, description: "SQLite \(path)", service: nil, shared: false, prepare: {})
    }

    /// The environment variable that names a PostgreSQL store when `--store` is not given.
    package static let environmentVariable = "STRATUS_STORE"

    /// The store URL from `--store` (`option`), else `STRATUS_STORE`; `nil` (or empty) means SQLite.
    package static func url(option: String?) -> String? {
        let url = option ?? ProcessInfo.processInfo.environment[environmentVariable]
        return url?.isEmpty == false ? url : nil
    }
}
