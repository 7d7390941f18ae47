import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import StratusConsole
import StratusCore
import StratusModel
import StratusProcess
import StratusServer
import StratusStore
import StratusStorePostgres
import UnixSignals

/// `stratus serve`: runs the server on an SQLite store in `--data`, or on PostgreSQL with
/// `--store postgres://…` (many instances may share one database and one `--data` directory).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server.")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: "The URL clients reach this server at, in share and sign-in links and the dev credentials (default: http://HOST:PORT, with 127.0.0.1 for an address that means every interface).")
    var publicURL: String?
    @Option(help: "Directory for the database, asset blobs and credentials.") var data = "./stratus-data"
    @Option(help: "PostgreSQL store URL, postgres://USER[:PASS]@HOST[:PORT]/DB (or STRATUS_STORE). Default: SQLite in --data.")
    var store: String?
    @Option(help: "Request limits: strict (Apple's figures) or lenient.") var limits: LimitsPreset = .strict
    @Option(help: "Log level (trace, debug, info, notice, warning, error). Default: info with --dev, notice otherwise.")
    var logLevel: String?
    @Option(help: "Log format: text (one line a request: method, path, status, container, database, zones, account, device, errors) or json (the same as one JSON object a line).")
    var logFormat: LogFormat = .text
    @Flag(help: "Seed a development container, API token and the accounts alice, bob and carol.") var dev = false
    @Option(
        name: .customLong("container"),
        help: ArgumentHelp(
            "With --dev, seed this container too, with an API token and web auth tokens of its own in dev-credentials.json (repeatable).",
            valueName: "identifier"
        )
    )
    var containers: [String] = []
    @Option(help: "Seconds a connection may sit idle (mid-body included) before it is closed.") var idleTimeout = 30
    @Option(help: "Seconds a request may take to send its whole body.") var bodyTimeout = 30
    @Option(help: "Connections open at once; more wait to be accepted.") var maxConnections = 1_000
    @Option(help: "Browser origin allowed to call the server (CORS): * or one origin. Default: * with --dev, none otherwise.")
    var corsOrigin: String?
    @Option(help: "Inject transient faults (throttled, try again later, slow, answer lost after commit) on this share of CKWS requests, 0 to 1.")
    var buggify: Double?
    @Option(help: "Seed of --buggify's draws: the same seed faults the same requests.") var seed: UInt64 = 1
    @Flag(help: "Queries need the indexes CloudKit requires, in development too: QUERYABLE/SORTABLE on filtered/sorted fields, and QUERYABLE on recordName (___recordID) to query a type without filters.")
    var requireIndexes = false
    @Option(
        help: ArgumentHelp(
            "With --dev, start with this schema file (CloudKit Schema Language, as `xcrun cktool export-schema` writes it) in the dev container's development and production environments: its types, fields, indexes and security roles.",
            valueName: "file.ckdb"
        )
    )
    var schema: String?

    func validate() throws {
        // A port out of range would otherwise bind a random one, with nothing said.
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0 to 65535 (0: any free port)") }
        guard idleTimeout >= 1, bodyTimeout >= 1 else { throw ValidationError("--idle-timeout and --body-timeout take at least 1 second") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections takes at least 1") }
        if let buggify, !(0...1).contains(buggify) { throw ValidationError("--buggify takes a rate from 0 to 1") }
        // The admin API's rule, checked before the port is bound rather than failing the seeding.
        for identifier in containers where !IdentityService.isValidContainerIdentifier(identifier) {
            throw ValidationError(
                "--container takes a container identifier of ASCII letters, digits, '.', '-' and '_' (like iCloud.com.example.App), not '\(identifier)'"
            )
        }
        if !containers.isEmpty, !dev { throw ValidationError("--container seeds a container beside the dev one: give --dev too") }
        if schema != nil, !dev { throw ValidationError("--schema gives the dev container its schema: give --dev too") }
    }

    func run() async throws {
        OpenFileLimit.raise()
        // The executable bootstraps logging and metrics (library code never does).
        if logFormat == .json { LoggingSystem.bootstrap { label in JSONLogHandler(label: label) } }
        let metrics = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))
        var logger = Logger(label: "stratus")
        logger.logLevel = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? (dev ? .info : .notice)
        // A schema file with an error refuses to start, naming its line, before anything is opened.
        let schemaFile = try schema.map { path in (path: path, document: try Serve.readSchema(path)) }
        let dataURL = URL(fileURLWithPath: data, isDirectory: true)
        try FileManager.default.createDirectory(at: dataURL, withIntermediateDirectories: true)
        let storeURL = StoreChoice.url(option: store)
        // One server per SQLite data directory; PostgreSQL instances share theirs by design.
        let claim: ServerLock?
        do {
            claim = storeURL == nil ? try ServerLock(directory: dataURL) : nil
        } catch let taken as ServerLock.Taken {
            Serve.sayError("stratus: \(taken)")
            throw ExitCode(1)
        }
        let opened = try await StoreChoice.open(url: storeURL, data: dataURL, logger: logger)
        let store = opened.store
        let storeDescription = opened.description

        // 0.0.0.0 (a container's listen address) is no address to reach a server at.
        let reachableHost = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
        let serverURL = publicURL ?? "http://\(reachableHost):\(port)"
        var configuration = CoreConfiguration(
            limits: limits.limits, signInURL: "\(serverURL)/stratus/v1/auth/signin", shareURLPrefix: "\(serverURL)/share/",
            buggify: buggify.map { BuggifySetting(rate: $0, seed: seed) }
        )
        // A development server's sign-in page lists its accounts; otherwise it asks for a password.
        configuration.signInListsAccounts = dev
        configuration.requireIndexes = requireIndexes
        let blobs = try FileBlobStore(directory: dataURL.appendingPathComponent("blobs", isDirectory: true))
        // On PostgreSQL, other instances may share the store: they keep in step through its signals.
        let services = StratusServices(store: store, blobs: blobs, configuration: configuration, signals: store as? any InstanceSignals)
        let options = HTTPOptions(
            idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(bodyTimeout), maximumConnections: maxConnections,
            corsOrigin: corsOrigin ?? (dev ? "*" : nil)
        )
        // The port is bound before anything is seeded or printed: a port in use fails at once.
        let dev = self.dev
        let containers = self.containers
        let console = try Console(services: services)
        let app = buildApplication(services, host: host, port: port, options: options, metrics: metrics, logger: logger) { boundPort in
            if let schemaFile { await Serve.start(with: schemaFile.document, from: schemaFile.path, services: services) }
            do {
                if dev {
                    let credentials = try await DataDirectoryLock(directory: dataURL).holding {
                        try await DevCredentialsFile(directory: dataURL).seed(
                            with: services, serverURL: serverURL, containers: containers, shared: claim == nil
                        )
                    }
                    Serve.say(DevCredentialsFile.walkthrough(credentials))
                    // A development server only this machine reaches: its browsers sign in at one click.
                    if Serve.isLoopback(host) { console.offerLocalSignIn(adminToken: credentials.adminToken) }
                } else {
                    try await DataDirectoryLock(directory: dataURL).holding { try await AdminTokenFile(directory: dataURL).ensure(with: services) }
                }
                try claim?.record(url: "http://\(reachableHost):\(boundPort)")
                Serve.say("Store: \(storeDescription)")
                Serve.say("Stratus listening on http://\(host):\(boundPort)")
                let tokenFile = dataURL.appendingPathComponent(dev ? "dev-credentials.json" : "admin-token").path
                let oneClick = dev && Serve.isLoopback(host) ? "one click on this machine, or " : ""
                Serve.say("Console: http://\(reachableHost):\(boundPort)/console (sign in with \(oneClick)the admin token in \(tokenFile))")
            } catch {
                Serve.say("stratus: cannot prepare the data directory: \(error)")
                Foundation.exit(1)
            }
        } mount: { console.register(on: $0) }
        // The store's own service first (PostgreSQL's pool, signals and drains), so it stops last;
        // the application serves once the store is prepared. SIGTERM or SIGINT stops the server
        // gracefully: the HTTP server stops taking requests and answers those in flight, Core's
        // services drain (push delivery, the relay), then the store stops. A shutdown that hangs
        // is cancelled.
        let running = (opened.service.map { [ServiceGroupConfiguration.ServiceConfiguration(service: $0)] } ?? [])
            + [.init(service: PreparedService(prepare: opened.prepare, service: app))]
        let group = ServiceGroup(
            configuration: .init(services: running, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger).shuttingDownWithin(.seconds(30))
        )
        try await group.run()
    }

    /// Whether `host` is reachable from this machine only.
    static func isLoopback(_ host: String) -> Bool { ["127.0.0.1", "localhost", "::1"].contains(host) }

    /// A line on standard output, written unbuffered so it appears at once, even through a pipe.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A line on standard error.
    static func sayError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
