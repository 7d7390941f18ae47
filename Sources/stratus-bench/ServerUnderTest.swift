import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

/// The server a benchmark drives: started here (`stratus serve --dev` in a temp directory, the
/// binary beside this one) or an already running one named by `--server` and `--credentials`.
/// Immutable once started: shared with the tasks that sample its memory.
final class ServerUnderTest: @unchecked Sendable {
    let credentials: DevCredentials
    let dataDirectory: URL?
    private let process: Process?

    var baseURL: String { credentials.serverURL }

    /// Starts `stratus serve --dev --limits lenient` on `port` and waits until it answers.
    init(startingBinary binary: URL, port: Int, client: HTTPClient) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = binary
        process.arguments = [
            "serve", "--dev", "--limits", "lenient", "--port", String(port), "--data", directory.path, "--log-level", "error",
            // The push workload holds 10,000 long-polls open at once.
            "--max-connections", "12000",
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        self.process = process
        self.dataDirectory = directory
        let file = directory.appendingPathComponent("dev-credentials.json")
        let serverURL = "http://127.0.0.1:\(port)"
        for _ in 0..<200 {
            if let data = try? Data(contentsOf: file), (try? await ServerUnderTest.health(serverURL, client: client)) == true {
                self.credentials = try JSONDecoder().decode(DevCredentials.self, from: data)
                return
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        process.terminate()
        throw BenchError("stratus did not start on port \(port)")
    }

    /// Targets a running server whose dev credentials are in `credentialsFile`.
    init(credentialsFile: URL, serverURL: String?) throws {
        var credentials = try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: credentialsFile))
        if let serverURL { credentials.serverURL = serverURL }
        self.credentials = credentials
        self.dataDirectory = nil
        self.process = nil
    }

    /// The started server's resident memory (`VmRSS`), in MB; `nil` for a server not started here.
    func residentMegabytes() -> Double? {
        guard let process, let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
        else { return nil }
        return kilobytes / 1024
    }

    func stop() {
        process?.terminate()
        process?.waitUntilExit()
        if let dataDirectory { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// The CKWS URL of `operation` in alice's private database.
    func url(_ operation: String, account: String = "alice") -> String {
        let token = credentials.account(account)?.webAuthToken ?? ""
        return "\(baseURL)/database/1/\(credentials.container)/\(credentials.environment)/private/\(operation)"
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
