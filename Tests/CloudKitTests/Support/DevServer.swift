import CloudKit
import Foundation
import Logging
import StratusCore
import StratusModel
import StratusProcess
import StratusServerRun
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stratus serve --dev` is, inside the test process: StratusServerRun's `ServerRun` on a
/// free port of 127.0.0.1 over its own data directory (`stratus.sqlite`, `blobs/`), seeded as the
/// dev server seeds — the accounts alice, bob and carol, the container
/// `iCloud.com.example.TravelJournal` and any others asked for, `dev-credentials.json` — with
/// strict limits, the sign-in page listing the accounts, CORS for any origin, and a log of a line
/// per request. A test talks to it only through CloudKit's API (and the `stratus` command, for
/// what no app can do). Many run at once in one test process: each has its own directory and port.
///
/// ``restart()`` stops it gracefully and starts it again on the same directory and port, seeded
/// with the credentials it wrote before (re-validated, not re-minted), so containers made after it
/// act as the same accounts; ``halt()`` and ``resume()`` leave the port closed in between;
/// ``crash()`` cuts it off instead. A test that needs a server killed outright (`kill -9`: no
/// answer leaves for a request in flight) starts a real process (``StratusServerProcess``).
actor DevServer: DevServerData {
    nonisolated let port: Int
    nonisolated let data: URL
    nonisolated let containerIdentifier = DevSeeder.container
    /// The containers seeded beside the default one (`stratus serve --dev --container`).
    private let containers: [String]
    private var run: ServerRun?

    /// Everything every run logged, in order: a line per request (method, path, status, …).
    nonisolated var log: URL { data.appendingPathComponent("server.log") }
    nonisolated var url: String { "http://127.0.0.1:\(port)" }

    private init(port: Int, data: URL, containers: [String]) {
        self.port = port
        self.data = data
        self.containers = containers
    }

    /// Starts a server (with `containers` seeded beside the default one) and runs `body` with it;
    /// the server stops and its data goes afterwards, whatever happens.
    static func with<T>(containers: [String] = [], _ body: (DevServer) async throws -> T) async throws -> T {
        let server = try await start(containers: containers)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    static func start(containers: [String] = []) async throws -> DevServer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-ck-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        do {
            // A port another process takes between its pick and the bind: the next one.
            return try await FreePort.starting { port in
                let server = DevServer(port: port, data: data, containers: containers)
                try await server.launch()
                return server
            }
        } catch {
            try? FileManager.default.removeItem(at: data)
            throw error
        }
    }

    /// Stops the server gracefully (requests in flight are answered first) and starts it again on
    /// the same data directory and port; returns once it listens.
    func restart() async throws {
        await halt()
        try await resume()
    }

    /// Cuts the server off — no graceful shutdown: requests in flight are cancelled, nothing is
    /// kept but what the store committed, the port closes — and starts it again on the same data
    /// directory and port; returns once it listens. Unlike `kill -9`, a request cancelled in a
    /// handler may still get an error answer before its connection goes.
    func crash() async throws {
        await run?.cut()
        run = nil
        try await resume()
    }

    /// Stops the server gracefully and leaves it stopped — the server is down, its port refuses —
    /// until ``resume()``.
    func halt() async {
        try? await run?.stop()
        run = nil
    }

    /// Starts a halted server again on the same data directory and port.
    func resume() async throws {
        // The port was this server's a moment ago; should another process have taken it
        // meanwhile, try again shortly.
        var failure: (any Error)?
        for attempt in 1...5 {
            do {
                try await launch()
                return
            } catch {
                failure = error
                try await Task.sleep(for: .milliseconds(200 * attempt))
            }
        }
        throw failure ?? ServerFailure("the dev server did not start again on port \(port)")
    }

    /// Stops the server and removes its data directory. Nothing here is kept, so nothing waits:
    /// the run is cut off (a request held by a fault rule's latency does not hold the test).
    func stop() async {
        await run?.cut()
        run = nil
        try? FileManager.default.removeItem(at: data)
    }

    /// Serves ``data`` on ``port`` as `stratus serve --dev` does (StratusServerRun's development
    /// composition), and seeds it: the credentials of the previous run (`dev-credentials.json`)
    /// where the store still takes them, the containers named at the start and any the file lists
    /// beside them (one made with `stratus container create`, say). Returns once it listens.
    private func launch() async throws {
        let log = self.log.path
        var logger = Logger(label: "stratus") { label in LogFile(label: label, path: log) }
        logger.logLevel = .info
        let run = try await ServerRun.start(directory: data, port: port, composition: .development, logger: logger)
        do {
            _ = try await run.seedDevelopment(containers: containers)
        } catch {
            await run.cut()
            throw ServerFailure("the dev server could not be seeded: \(error)")
        }
        self.run = run
    }
}

struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A ``DevServer``'s log, as `stratus serve` writes its own: a line per entry (level, label,
/// message, then its metadata as `key=value`), appended to a file. Each line is one `write` to a
/// descriptor opened for appending, so the lines of concurrent requests never interleave.
private struct LogFile: LogHandler {
    let label: String
    let path: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, path: String) {
        self.label = label
        self.path = path
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let given = event.metadata { fields.merge(given) { _, new in new } }
        let details = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
        let line = "\(Date().formatted(.iso8601)) \(event.level) \(label): \(event.message)\(details)\n"
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { buffer in write(descriptor, buffer.baseAddress, buffer.count) }
    }
}
