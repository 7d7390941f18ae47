import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel
import StratusServerRun
import Synchronization

/// The server a benchmark drives: started here (`stratus serve --dev` in a temp directory, the
/// binary beside this one; with `--instances N`, N of them on one `--store`, requests alternating
/// between them) or an already running one named by `--server` and `--credentials`.
/// Immutable once started: shared with the tasks that sample its memory.
final class ServerUnderTest: @unchecked Sendable {
    let credentials: DevCredentials
    let dataDirectory: URL?
    private let processes: [ServerProcess]
    /// Every instance's URL; ``url(_:account:)`` takes them in turn.
    private let baseURLs: [String]
    private let turn = ManagedAtomicCounter()

    var baseURL: String { credentials.serverURL }
    /// Every instance's base URL (one unless `--instances`), for clients that take a server URL
    /// rather than asking ``url(_:account:)`` each time.
    var instanceURLs: [String] { baseURLs }

    /// Starts `stratus serve --dev --limits lenient` on `port` (and the next ports for more
    /// instances, on the same `store` and data directory) and waits until each is ready:
    /// StratusServerRun's `ServerProcess`, the one launcher of a server process.
    init(startingBinary binary: URL, port: Int, store: String? = nil, instances: Int = 1) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let arguments = [
            "--limits", "lenient", "--log-level", "error",
            // The push workload holds 10,000 long-polls open at once.
            "--max-connections", "12000",
        ] + (store.map { ["--store", $0] } ?? [])
        var processes: [ServerProcess] = []
        do {
            for instance in 0..<max(instances, 1) {
                processes.append(try await ServerProcess.start(
                    binary: binary.path, data: directory, port: port + instance, arguments: arguments,
                    output: directory.appendingPathComponent("server.log").path
                ))
            }
        } catch {
            for process in processes { await process.terminate() }
            throw BenchError("stratus did not start: \(error)")
        }
        guard let credentials = processes.first?.credentials else { throw BenchError("no credentials") }
        self.credentials = credentials
        self.processes = processes
        self.dataDirectory = directory
        self.baseURLs = processes.map(\.url)
    }

    /// Targets a running server whose dev credentials are in `credentialsFile`.
    init(credentialsFile: URL, serverURL: String?) throws {
        var credentials = try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: credentialsFile))
        if let serverURL { credentials.serverURL = serverURL }
        self.credentials = credentials
        self.dataDirectory = nil
        self.processes = []
        self.baseURLs = [credentials.serverURL]
    }

    /// The started server's resident memory (`VmRSS`), in MB; `nil` for a server not started here.
    func residentMegabytes() -> Double? {
        guard let pid = processes.first?.pid, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// The CPU time (user and system) the started server used so far, in seconds; `nil` for a
    /// server not started here.
    func cpuSeconds() -> Double? {
        guard let pid = processes.first?.pid else { return nil }
        return CPUTime.seconds(ofProcess: pid)
    }

    func stop() async {
        for process in processes { await process.terminate() }
        if let dataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// The CKWS URL of `operation` in alice's private database.
    func url(_ operation: String, account: String = "alice") -> String {
        let token = credentials.account(account)?.webAuthToken ?? ""
        let base = baseURLs[turn.next() % baseURLs.count]
        return "\(base)/database/1/\(credentials.container)/\(credentials.environment)/private/\(operation)"
            + "?ckAPIToken=\(credentials.apiToken)&ckWebAuthToken=\(token)"
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A counter shared by the load's tasks (which instance takes the next request).
final class ManagedAtomicCounter: Sendable {
    private let value = Mutex(0)

    func next() -> Int {
        value.withLock { value in
            defer { value &+= 1 }
            return value
        }
    }
}
