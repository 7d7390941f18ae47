import Foundation
import Logging
import Prometheus
import ServiceLifecycle
import StratusConsole
import StratusCore
import StratusModel
import StratusProcess
import StratusServer
import StratusStore
import UnixSignals

/// One run of a Stratus server inside this process, on a socket: a ``ServerComposition`` over
/// the store of a data directory (`stratus.sqlite` and `blobs/` there, or a PostgreSQL store
/// sharing the directory's blobs). It starts (returning once it listens), is seeded as a
/// development server, stops gracefully (cut off after 30 s) or is cut off. `stratus serve` is a
/// run that lasts until a signal stops it; StratusTesting's `StratusTestServer` is one run, and
/// `stratus fuzz`'s server and the CloudKit tests' `DevServer` are runs restarted on the same
/// directory.
package final class ServerRun: Sendable {
    /// Why a run did not start, when the run itself gave no error.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// Where the run listens.
    package let host: String
    /// The port it listens on.
    package let port: Int
    package let services: StratusServices
    /// The store it runs on, said plainly (no password).
    package let storeDescription: String
    /// Whether other instances share the data directory (a PostgreSQL store).
    package let sharesDirectory: Bool
    private let directory: URL
    private let console: Console?
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    private init(
        host: String, port: Int, services: StratusServices, opened: OpenedStore, directory: URL, console: Console?,
        group: ServiceGroup, running: Task<Void, any Error>
    ) {
        self.host = host
        self.port = port
        self.services = services
        self.storeDescription = opened.description
        self.sharesDirectory = opened.shared
        self.directory = directory
        self.console = console
        self.group = group
        self.running = running
    }

    /// Opens (and migrates) the SQLite store of `directory` — or runs on `store`, opened by the
    /// caller (`stratus serve`'s PostgreSQL) — and serves `composition` over it on `host:port`
    /// (port 0: any free one); returns once it listens.
    /// `serverURL` is where clients reach it (its sign-in and share links; by default
    /// `http://host:port` when the port is given). `logger` gets the run's log — at `info` the
    /// access log's line per request — and without one nothing below `critical` is logged;
    /// `metrics` is served at `/metrics`; `shutdownSignals` stop the run gracefully.
    /// - Throws: the run's own error when it ended before it listened (the port taken, say).
    package static func start(
        directory: URL, host: String = "127.0.0.1", port: Int, serverURL named: String? = nil, store: OpenedStore? = nil,
        composition: ServerComposition, metrics: PrometheusCollectorRegistry? = nil, logger given: Logger? = nil,
        shutdownSignals: [UnixSignal] = []
    ) async throws -> ServerRun {
        // Every store, blob and connection is a file of this process: as many as the system allows.
        OpenFileLimit.raise()
        let logger = given ?? quiet
        let opened: OpenedStore
        if let store { opened = store } else { opened = try await OpenedStore.sqlite(in: directory) }
        let serverURL = named ?? (port == 0 ? nil : "http://\(reachable(host)):\(port)")
        let services = try composition.services(
            store: opened.store, blobDirectory: directory.appendingPathComponent("blobs", isDirectory: true), serverURL: serverURL,
            signals: opened.store as? any InstanceSignals, logger: logger
        )
        let (listening, announce) = AsyncStream.makeStream(of: Int.self)
        let (app, console) = try composition.application(services, host: host, port: port, metrics: metrics, logger: logger) { bound in
            announce.yield(bound)
        }
        // The store's own service first (PostgreSQL's pool, signals and drains), so it stops
        // last; the application serves once the store is prepared. A graceful stop answers the
        // requests in flight, drains Core's services (push delivery, the relay), then stops the
        // store; one that hangs (a request held longer) is cut short after 30 s.
        let members = (opened.service.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? [])
            + [.init(service: PreparedService(prepare: opened.prepare, service: app))]
        var configuration = ServiceGroupConfiguration(services: members, gracefulShutdownSignals: shutdownSignals, logger: logger)
        configuration.maximumGracefulShutdownDuration = .seconds(30)
        let group = ServiceGroup(configuration: configuration)
        let running = Task {
            defer { announce.finish() }
            try await group.run()
        }
        var ports = listening.makeAsyncIterator()
        // Cancelled while it starts: the run goes too (its task is not this one's child).
        let bound = await withTaskCancellationHandler { await ports.next() } onCancel: { running.cancel() }
        guard let bound else {
            // The group ended before it listened: its error says why.
            _ = try await running.value
            throw Failure(description: "the server stopped before it listened")
        }
        return ServerRun(
            host: host, port: bound, services: services, opened: opened, directory: directory, console: console, group: group, running: running
        )
    }

    /// The log of a run not given a logger: `critical` only (a cut-off run's cancelled work is
    /// expected, not news).
    private static var quiet: Logger {
        var logger = Logger(label: "stratus-in-process")
        logger.logLevel = .critical
        return logger
    }

    /// The host a client reaches an address at: 0.0.0.0 (a container's listen address) is none.
    package static func reachable(_ host: String) -> String {
        ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
    }

    /// Whether `host` is reachable from this machine only.
    package static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1"].contains(host) }

    /// Where clients on this machine reach the run.
    package var url: String { "http://\(Self.reachable(host)):\(port)" }

    /// Seeds the run as a development server — the dev container and `containers`, their API
    /// tokens, the accounts alice, bob and carol — keeping the credentials of the directory's
    /// `dev-credentials.json` the store still takes, and writes the file; instances sharing the
    /// directory seed one at a time. A run only this machine reaches offers its console's
    /// one-click sign-in.
    package func seedDevelopment(serverURL: String? = nil, containers: [String] = []) async throws -> DevCredentialsFile.Seeded {
        let seeded = try await DataDirectoryLock(directory: directory).holding {
            try await DevCredentialsFile(directory: directory).seed(
                identity: services.identity, serverURL: serverURL ?? url, containers: containers, shared: sharesDirectory
            )
        }
        if Self.isLoopback(host) { console?.offerLocalSignIn(adminToken: seeded.credentials.adminToken) }
        return seeded
    }

    /// Runs `body` holding the data directory's lock, against other instances preparing it.
    package func holdingDirectory<T>(_ body: () async throws -> T) async throws -> T {
        try await DataDirectoryLock(directory: directory).holding(body)
    }

    /// Waits until the run ends (a shutdown signal, or an error); rethrows its error.
    package func wait() async throws {
        try await running.value
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
