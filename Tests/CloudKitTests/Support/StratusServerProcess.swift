import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CloudKit
import StratusProcess

/// A real `stratus serve --dev` process on a free port with its own data directory, for the few
/// tests that need the server to be a process of its own — killed outright (``crash()``: `kill -9`,
/// so a request in flight gets no answer at all) — and talk to it only through CloudKit's API.
/// Every other test runs on ``DevServer``, the same server inside the test process, with the same
/// API. Its accounts are the dev server's: alice, bob and carol. ``restart()`` stops it and starts
/// it again on the same data directory and port: the dev server keeps its credentials there
/// (re-validated, not re-minted), so containers made after it act as the same accounts.
final class StratusServerProcess: @unchecked Sendable {
    let port: Int
    let data: URL
    private let extra: [String]
    private var pid: pid_t?
    private var launches = 0

    /// The server's dev credentials file (what ``StratusConnection/init(devCredentials:account:)`` reads).
    var credentials: URL { data.appendingPathComponent("dev-credentials.json") }
    /// Everything every launch printed, in order (the server logs a line per request).
    var log: URL { data.appendingPathComponent("server.log") }
    let containerIdentifier = "iCloud.com.example.TravelJournal"

    private init(port: Int, data: URL, extra: [String]) {
        self.port = port
        self.data = data
        self.extra = extra
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

    /// A container as `account` (`alice`, `bob`) of this server.
    func container(_ account: String) throws -> CKContainer {
        CKContainer(identifier: containerIdentifier, connection: try StratusConnection(devCredentials: credentials, account: account))
    }

    /// The `stratus` binary beside the test bundle (the package builds it for this target).
    static var binary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus") }

    /// Runs an operator's `stratus` command against this server (`--data` names it); answers
    /// its exit status. For what no app can do through CloudKit's API: quotas, say. Waits without
    /// holding a thread: the tests' other work goes on meanwhile.
    @discardableResult
    func stratus(_ arguments: [String]) async throws -> Int32 {
        let command = try ChildProcess.spawn(Self.binary.path, arguments + ["--data", data.path], output: "/dev/null")
        return await ChildProcess.ending(of: command).shellStatus
    }

    static func start(_ extra: [String]) async throws -> StratusServerProcess {
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServerFailure("no stratus binary at \(binary.path): build the package first")
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-ck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        var failure: any Error = ServerFailure("stratus serve did not start; see \(data.path)/server.log")
        for _ in 0..<5 {
            let server = StratusServerProcess(port: try FreePort.pick(), data: data, extra: extra)
            do {
                try await server.launch()
                return server
            } catch {
                failure = error
                await server.terminate()
            }
        }
        try? FileManager.default.removeItem(at: data)
        throw failure
    }

    /// Stops the process (SIGTERM, waiting for it to exit) and starts `stratus serve --dev` again
    /// on the same data directory and port; returns once the new process listens.
    func restart() async throws {
        await terminate()
        try await launch()
    }

    /// Kills the process outright (`kill -9`: no request finishes, nothing is flushed but what
    /// the store committed) and starts `stratus serve --dev` again on the same data directory and
    /// port; returns once the new process listens.
    func crash() async throws {
        if let pid {
            kill(pid, SIGKILL)
            _ = await ChildProcess.ending(of: pid)
        }
        pid = nil
        try await launch()
    }

    /// Stops the process (SIGTERM) and leaves it stopped — the server is down, its port refuses —
    /// until ``resume()``.
    func halt() async {
        await terminate()
    }

    /// Starts a halted server again on the same data directory and port.
    func resume() async throws {
        try await launch()
    }

    /// Stops the process and removes its data directory.
    func stop() async {
        await terminate()
        try? FileManager.default.removeItem(at: data)
    }

    /// Runs `stratus serve --dev` on ``data`` and ``port`` (its output appended to ``log``) and
    /// waits for this launch's "listening" line, printed once the port is bound and the dev
    /// credentials seeded or re-validated, and for the port to answer.
    private func launch() async throws {
        launches += 1
        let child = try ChildProcess.spawn(
            Self.binary.path, ["serve", "--dev", "--host", "127.0.0.1", "--port", String(port), "--data", data.path] + extra, output: log.path
        )
        pid = child
        let deadline = Date().addingTimeInterval(180)
        while Date() < deadline, ChildProcess.isRunning(child) {
            let printed = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
            if printed.components(separatedBy: "Stratus listening on").count > launches, FileManager.default.fileExists(atPath: credentials.path),
                FreePort.answers(port)
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerFailure("stratus serve did not start on port \(port); see \(log.path)")
    }

    /// SIGTERM, then waits (at most 30 s, then SIGKILL) until the process has exited.
    private func terminate() async {
        if let pid { await ChildProcess.terminate(pid) }
        pid = nil
    }
}
