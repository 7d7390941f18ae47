import ArgumentParser
import Foundation
import Logging
import Metrics
import Prometheus
import StratusCore
import StratusModel
import StratusServer
import StratusServerRun
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
        let storeURL = OpenedStore.url(option: store)
        // One server per SQLite data directory; PostgreSQL instances share theirs by design.
        let claim: ServerLock?
        do {
            claim = storeURL == nil ? try ServerLock(directory: dataURL) : nil
        } catch let taken as ServerLock.Taken {
            Serve.sayError("stratus: \(taken)")
            throw ExitCode(1)
        }
        let composition = ServerComposition(
            limits: limits.limits, buggify: buggify.map { BuggifySetting(rate: $0, seed: seed) },
            // A development server's sign-in page lists its accounts; otherwise it asks for a password.
            signInListsAccounts: dev, requireIndexes: requireIndexes,
            http: HTTPOptions(
                idleTimeout: .seconds(idleTimeout), bodyTimeout: .seconds(bodyTimeout), maximumConnections: maxConnections,
                corsOrigin: corsOrigin ?? (dev ? "*" : nil)
            )
        )
        // The port is bound before anything is seeded or printed: a port in use fails at once.
        // SIGTERM or SIGINT stops the server gracefully.
        let serverURL = publicURL ?? "http://\(ServerRun.reachable(host)):\(port)"
        let opened = try await StoreChoice.open(url: storeURL, data: dataURL, logger: logger)
        let run = try await ServerRun.start(
            directory: dataURL, host: host, port: port, serverURL: serverURL, store: opened,
            composition: composition, metrics: metrics, logger: logger, shutdownSignals: [.sigterm, .sigint]
        )
        // The schema is in place before the dev credentials are written: a client that finds
        // them finds the schema.
        if let schemaFile { try await Serve.start(with: schemaFile.document, from: schemaFile.path, run: run) }
        do {
            if dev {
                let seeded = try await run.seedDevelopment(serverURL: serverURL, containers: containers)
                if !seeded.reminted.isEmpty {
                    Serve.say("dev credentials: minted again (the store no longer took them): \(seeded.reminted.joined(separator: ", "))")
                }
                Serve.say(DevWalkthrough.text(seeded.credentials))
            } else {
                try await run.holdingDirectory { try await AdminTokenFile(directory: dataURL).ensure(with: run.services) }
            }
            try claim?.record(url: run.url)
        } catch {
            Serve.sayError("stratus: cannot prepare the data directory: \(error)")
            await run.cut()
            throw ExitCode(1)
        }
        Serve.say("Store: \(run.storeDescription)")
        Serve.say("Stratus listening on http://\(host):\(run.port)")
        let tokenFile = dataURL.appendingPathComponent(dev ? "dev-credentials.json" : "admin-token").path
        let oneClick = dev && ServerRun.isLoopback(host) ? "one click on this machine, or " : ""
        Serve.say("Console: \(run.url)/console (sign in with \(oneClick)the admin token in \(tokenFile))")
        try await run.wait()
    }

    /// A line on standard output, written unbuffered so it appears at once, even through a pipe.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// A line on standard error.
    static func sayError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
