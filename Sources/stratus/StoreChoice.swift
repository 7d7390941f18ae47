import Foundation
import Logging
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres

/// Which store `stratus serve` runs on: PostgreSQL when `--store` (or `STRATUS_STORE`) names a
/// `postgres://` URL, otherwise SQLite in the data directory. Either is migrated before use.
enum StoreChoice {
    /// The environment variable read when `--store` is not given.
    static let environmentVariable = "STRATUS_STORE"

    /// The store URL from `--store`, else `STRATUS_STORE`; `nil` (or empty) means SQLite.
    static func url(option: String?) -> String? {
        let url = option ?? ProcessInfo.processInfo.environment[environmentVariable]
        return url?.isEmpty == false ? url : nil
    }

    /// Opens and migrates the chosen store, and says which it is (without any password).
    static func open(url: String?, data: URL, logger: Logger) async throws -> (store: any CompleteStore, description: String) {
        guard let url else {
            let path = data.appendingPathComponent("stratus.sqlite").path
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            return (store, "SQLite \(path)")
        }
        let location = try PostgresLocation(url: url)
        let store = PostgresStore(location, logger: logger)
        try await store.migrate()
        return (store, "PostgreSQL \(location)")
    }
}
