import Foundation
import CloudKit
import StratusProcess
import StratusServerRun

/// A real `stratus serve --dev` process on a free port with its own data directory, for the few
/// tests that need the server to be a process of its own — killed outright (``crash()``: `kill -9`,
/// so a request in flight gets no answer at all) — and talk to it only through CloudKit's API.
/// Every other test runs on ``DevServer``, the same server inside the test process, with the same
/// API. Its accounts are the dev server's: alice, bob and carol. ``restart()`` stops it and starts
/// it again on the same data directory and port: the dev server keeps its credentials there
/// (re-validated, not re-minted), so containers made after it act as the same accounts.
final class StratusServerProcess: DevServerData {
    private let process: ServerProcess

    var port: Int { process.port }
    var data: URL { process.data }
    /// Everything every launch printed, in order (the server logs a line per request).
    var log: URL { data.appendingPathComponent("server.log") }
    let containerIdentifier = "iCloud.com.example.TravelJournal"

    private init(process: ServerProcess) {
        self.process = process
    }

    /// Starts a server and runs `body` with it; the server stops and its data goes afterwards,
    /// whatever happens.
    static func with<T>(_ extra: [String] = [], _ body: (StratusServerProcess) async throws -> T) async throws -> T {
        let server = try await start(extra)
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// `stratus serve --dev` (StratusServerRun's `ServerProcess`, the one launcher of a server
    /// process) on a free port with a fresh data directory; returns once it is ready.
    static func start(_ extra: [String]) async throws -> StratusServerProcess {
        let binary = try StratusBinary.path()
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-ck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        do {
            let log = data.appendingPathComponent("server.log").path
            return StratusServerProcess(process: try await ServerProcess.start(binary: binary, data: data, arguments: extra, output: log))
        } catch {
            try? FileManager.default.removeItem(at: data)
            throw error
        }
    }

    /// Stops the process (SIGTERM, waiting for it to exit) and starts `stratus serve --dev` again
    /// on the same data directory and port; returns once the new process is ready.
    func restart() async throws {
        await process.terminate()
        try await process.launch()
    }

    /// Kills the process outright (`kill -9`: no request finishes, nothing is flushed but what
    /// the store committed) and starts `stratus serve --dev` again on the same data directory and
    /// port; returns once the new process is ready.
    func crash() async throws {
        await process.kill()
        try await process.launch()
    }

    /// Stops the process (SIGTERM) and leaves it stopped — the server is down, its port refuses —
    /// until ``resume()``.
    func halt() async {
        await process.terminate()
    }

    /// Starts a halted server again on the same data directory and port.
    func resume() async throws {
        try await process.launch()
    }

    /// Stops the process and removes its data directory.
    func stop() async {
        await process.terminate()
        try? FileManager.default.removeItem(at: data)
    }
}
