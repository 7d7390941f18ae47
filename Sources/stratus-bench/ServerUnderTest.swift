import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel
import Synchronization

/// The server a benchmark drives: started here (`stratus serve --dev` in a temp directory, the
/// binary beside this one; with `--instances N`, N of them on one `--store`, requests alternating
/// between them) or an already running one named by `--server` and `--credentials`.
/// Immutable once started: shared with the tasks that sample its memory.
final class ServerUnderTest: @unchecked Sendable {
    let credentials: DevCredentials
    let dataDirectory: URL?
    private let processes: [Process]
    /// Every instance's URL; ``url(_:account:)`` takes them in turn.
    private let baseURLs: [String]
    private let turn = ManagedAtomicCounter()

    var baseURL: String { credentials.serverURL }
    /// Every instance's base URL (one unless `--instances`), for clients that take a server URL
    /// rather than asking ``url(_:account:)`` each time.
    var instanceURLs: [String] { baseURLs }

    /// Starts `stratus serve --dev --limits lenient` on `port` (and the next ports for more
    /// instances, on the same `store` and data directory) and waits until each answers.
    init(startingBinary binary: URL, port: Int, client: HTTPClient, store: String? = nil, instances: Int = 1) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var processes: [Process] = []
        var credentials: DevCredentials?
        for instance in 0..<max(instances, 1) {
            let process = Process()
            process.executableURL = binary
            process.arguments = [
                "serve", "--dev", "--limits", "lenient", "--port", String(port + instance), "--data", directory.path, "--log-level", "error",
                // The push workload holds 10,000 long-polls open at once.
                "--max-connections", "12000",
            ] + (store.map { ["--store", $0] } ?? [])
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            processes.append(process)
            let file = directory.appendingPathComponent("dev-credentials.json")
            let serverURL = "http://127.0.0.1:\(port + instance)"
            var started = false
            for _ in 0..<300 {
                if let data = try? Data(contentsOf: file), (try? await ServerUnderTest.health(serverURL, client: client)) == true {
                    if credentials == nil { credentials = try JSONDecoder().decode(DevCredentials.self, from: data) }
                    started = true
                    break
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            guard started else {
                for process in processes { process.terminate() }
                throw BenchError("stratus did not start on port \(port + instance)")
            }
        }
        guard let credentials else { throw BenchError("no credentials") }
        self.credentials = credentials
        self.processes = processes
        self.dataDirectory = directory
        self.baseURLs = processes.indices.map { "http://127.0.0.1:\(port + $0)" }
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
        guard let process = processes.first, let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    /// The CPU time (user and system) the started server used so far, in seconds; `nil` for a
    /// server not started here.
    func cpuSeconds() -> Double? {
        guard let process = processes.first else { return nil }
        return CPUTime.seconds(ofProcess: process.processIdentifier)
    }

    func stop() {
        for process in processes {
            process.terminate()
            process.waitUntilExit()
        }
        if let dataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// The CKWS URL of `operation` in alice's private database.
    func url(_ operation: String, account: String = "alice") -> String {
        let token = credentials.account(account)?.webAuthToken ?? ""
        let base = baseURLs[turn.next() % baseURLs.count]
        return "\(base)/database/1/\(credentials.container)/\(credentials.environment)/private/\(operation)"
            + "?ckAPIToken=\(credentials.apiToken)&ckWebAuthToken=\(token)"
    }

    static func health(_ serverURL: String, client: HTTPClient) async throws -> Bool {
        let response = try await client.execute(HTTPClientRequest(url: "\(serverURL)/stratus/v1/health"), timeout: .seconds(2))
        return response.status == .ok
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
