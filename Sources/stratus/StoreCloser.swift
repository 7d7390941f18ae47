import ServiceLifecycle
import StratusStore
import StratusStorePostgres

/// Closes the store once everything above it has stopped: first in the service group, so it is
/// the last to shut down (a PostgreSQL pool and its LISTEN connection end; an SQLite pool closes
/// when the process ends).
struct StoreCloser: Service {
    let store: any CompleteStore

    func run() async {
        try? await gracefulShutdown()
        (store as? PostgresStore)?.close()
    }
}

extension ServiceGroupConfiguration {
    /// This configuration, with a graceful shutdown cut short (cancelled) after `limit`.
    func shuttingDownWithin(_ limit: Duration) -> ServiceGroupConfiguration {
        var configuration = self
        configuration.maximumGracefulShutdownDuration = limit
        return configuration
    }
}
