import Foundation
import Logging
import ServiceLifecycle
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres

/// Which store a server runs on (a ``ServerRun``, so `stratus serve`): PostgreSQL when `--store`
/// (or `STRATUS_STORE`) names a `postgres://` URL, otherwise SQLite in the data directory. Either
/// is migrated before use.
package enum StoreChoice {
    /// The environment variable read when `--store` is not given.
    package static let environmentVariable = "STRATUS_STORE"

    /// The store URL from `--store`, else `STRATUS_STORE`; `nil` (or empty) means SQLite.
    package static func url(option: String?) -> String? {
        let url = option ?? ProcessInfo.processInfo.environment[environmentVariable]
        return url?.isEmpty == false ? url : nil
    }

    /// The store a server opened: what it is (without any password), the service that runs it
    /// (PostgreSQL's pool, signals and drains; none for SQLite) and what must happen before the
    /// server serves (PostgreSQL's migrations, once its service runs).
    package struct Opened {
        package let store: any CompleteStore
        package let description: String
        package let service: (any Service)?
        package let prepare: @Sendable () async throws -> Void
    }

    /// Opens the chosen store (SQLite migrated at once; PostgreSQL by `prepare`, once running).
    package static func open(url: String?, data: URL, logger: Logger) async throws -> Opened {
        guard let url else {
            let path = data.appendingPathComponent("stratus.sqlite").path
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            return Opened(store: store, description: "SQLite \(path)", service: nil, prepare: {})
        }
        let location = try PostgresLocation(url: url)
        let store = PostgresStore(location, logger: logger)
        return Opened(store: store, description: "PostgreSQL \(location)", service: store, prepare: { try await store.migrate() })
    }
}
