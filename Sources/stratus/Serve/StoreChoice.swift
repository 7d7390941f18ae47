import Foundation
import Logging
import StratusServerRun
import StratusStorePostgres

/// Which store `stratus serve` runs on: PostgreSQL when `--store` (or `STRATUS_STORE`) names a
/// `postgres://` URL, otherwise SQLite in the data directory. Either is migrated before use.
enum StoreChoice {
    /// Opens the chosen store (SQLite migrated at once; PostgreSQL by `prepare`, once running).
    static func open(url: String?, data: URL, logger: Logger) async throws -> OpenedStore {
        guard let url else { return try await OpenedStore.sqlite(in: data) }
        let location = try PostgresLocation(url: url)
        let store = PostgresStore(location, logger: logger)
        return OpenedStore(store: store, description: "PostgreSQL \(location)", service: store, shared: true, prepare: { try await store.migrate() })
    }
}
