import Foundation
import Logging
import ServiceLifecycle
import StratusCore
import StratusServer
import StratusStore
import StratusStoreSQLite

/// One run of the Stratus application inside this process, on 127.0.0.1, over the SQLite store
/// of `directory` (`stratus.sqlite`, `blobs/`): what StratusTesting's `StratusTestServer` and
/// `stratus fuzz`'s own server are made of. Unless given a logger it logs nothing below `critical`
/// (a cut-off run's cancelled work is expected, not news).
package final class ServerRun: Sendable {
    /// Why a run did not start, when the run itself gave no error.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The port it listens on.
    package let port: Int
    package let services: StratusServices
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(port: Int, services: StratusServices, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.services = services
        self.group = group
        self.running = running
    }

    /// Opens (and migrates) the store and serves it on `port` (0: any free one); returns once it
    /// listens. `logger` gets the run's log — at `info`, the access log's line per request, as
    /// `stratus serve` prints it; without one, nothing below `critical` is logged.
    /// - Throws: the run's own error when it ended before it listened (the port taken, say).
    package static func start(
        directory: URL, port: Int, configuration: CoreConfiguration, options: HTTPOptions = HTTPOptions(), logger given: Logger? = nil
    ) async throws -> ServerRun {
        let store = try SQLiteStore(path: directory.appendingPathComponent("stratus.sqlite").path)
        try await store.migrate()
        let logger = given ?? quiet
        let services = StratusServices(
            store: store, blobs: try FileBlobStore(directory: directory.appendingPathComponent("blobs", isDirectory: true)),
            configuration: configuration, logger: logger
        )
        let (listening, announce) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(services, host: "127.0.0.1", port: port, options: options, logger: logger) { bound in announce.yield(bound) }
        // A graceful stop that hangs (a request held longer) is cut short, as `stratus serve`'s is.
        var groupConfiguration = ServiceGroupConfiguration(services: [app], logger: logger)
        groupConfiguration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: groupConfiguration)
        let running = Task {
            defer { announce.finish() }
            try await group.run()
        }
        var ports = listening.makeAsyncIterator()
        guard let bound = await ports.next() else {
            // The group ended before it listened: its error says why.
            _ = try await running.value
            throw Failure(description: "the server stopped before it listened")
        }
        return ServerRun(port: bound, services: services, group: group, running: running)
    }

    /// The log of a run not given a logger: `critical` only.
    private static var quiet: Logger {
        var logger = Logger(label: "stratus-in-process")
        logger.logLevel = .critical
        return logger
    }

    /// Stops gracefully: requests in flight are answered first (within 30 s, then cut off).
    package func stop() async throws {
        await group.triggerGracefulShutdown()
        try await running.value
    }

    /// Cuts the run off: its task cancelled, no graceful shutdown (requests in flight are cut,
    /// nothing is flushed but what the store committed).
    package func cut() async {
        running.cancel()
        _ = await running.result
    }
}
