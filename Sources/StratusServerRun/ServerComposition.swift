import Foundation
import Hummingbird
import Logging
import Prometheus
import StratusConsole
import StratusCore
import StratusModel
import StratusServer
import StratusStore

/// What one Stratus server is made of, whichever way it then serves: Core's configuration from
/// the server's options and the URL clients reach it at, Core's services over a store and a blob
/// directory, and the HTTP application with the console mounted. `stratus serve`, ``ServerRun``
/// (in this process, on a socket) and StratusServerTesting's `TestServer` (through the router or
/// on a live socket) are each this composition; ``ServerProcess`` starts `stratus serve`, so the
/// same composition in a process of its own.
package struct ServerComposition: Sendable {
    /// Request limits: Apple's figures (`strict`) or `lenient` ones.
    package var limits: ServiceLimits
    /// Transient faults injected on a share of CKWS requests (`--buggify`).
    package var buggify: BuggifySetting?
    /// The sign-in page lists the accounts (a development server) rather than asking for a password.
    package var signInListsAccounts: Bool
    /// Queries need the indexes CloudKit requires, in development too (`--require-indexes`).
    package var requireIndexes: Bool
    /// The server's clock, for tests that move time; the wall clock when `nil`.
    package var now: (@Sendable () -> Int64)?
    /// Timeouts, connection ceiling and CORS.
    package var http: HTTPOptions
    /// Whether the console is mounted at `/console`.
    package var console: Bool

    package init(
        limits: ServiceLimits = .strict, buggify: BuggifySetting? = nil, signInListsAccounts: Bool = false, requireIndexes: Bool = false,
        now: (@Sendable () -> Int64)? = nil, http: HTTPOptions = HTTPOptions(), console: Bool = true
    ) {
        self.limits = limits
        self.buggify = buggify
        self.signInListsAccounts = signInListsAccounts
        self.requireIndexes = requireIndexes
        self.now = now
        self.http = http
        self.console = console
    }

    /// A development server, as `stratus serve --dev` runs: strict limits, the sign-in page
    /// listing the accounts, any browser origin allowed.
    package static var development: ServerComposition {
        ServerComposition(signInListsAccounts: true, http: HTTPOptions(corsOrigin: "*"))
    }

    /// Core's configuration for a server clients reach at `serverURL` (its sign-in page and share
    /// links point there); Core's defaults without one.
    package func configuration(serverURL: String?) -> CoreConfiguration {
        var configuration = CoreConfiguration(limits: limits, buggify: buggify)
        if let serverURL {
            configuration.signInURL = "\(serverURL)/stratus/v1/auth/signin"
            configuration.shareURLPrefix = "\(serverURL)/share/"
        }
        configuration.signInListsAccounts = signInListsAccounts
        configuration.requireIndexes = requireIndexes
        if let now { configuration.now = now }
        return configuration
    }

    /// Core's services over `store`, asset blobs kept in `blobDirectory`. `signals` keeps
    /// instances sharing a PostgreSQL store in step; `logger` gets the services' own log.
    package func services(
        store: any CompleteStore, blobDirectory: URL, serverURL: String?, signals: (any InstanceSignals)? = nil,
        logger: Logger = Logger(label: "stratus")
    ) throws -> StratusServices {
        StratusServices(
            store: store, blobs: try FileBlobStore(directory: blobDirectory), configuration: configuration(serverURL: serverURL),
            signals: signals, logger: logger
        )
    }

    /// The HTTP application over `services`, listening on `host:port` (0: any free port), with the
    /// console mounted unless ``console`` is off; answers the console too, for what a server does
    /// with it once seeded (a development server's one-click sign-in).
    package func application(
        _ services: StratusServices, host: String = "127.0.0.1", port: Int, metrics: PrometheusCollectorRegistry? = nil, logger: Logger,
        onListening: @escaping @Sendable (Int) async -> Void = { _ in }
    ) throws -> (application: some ApplicationProtocol, console: Console?) {
        let console = self.console ? try Console(services: services) : nil
        let application = buildApplication(
            services, host: host, port: port, options: http, metrics: metrics, logger: logger, onListening: onListening,
            mount: { router in console?.register(on: router) }
        )
        return (application, console)
    }
}
