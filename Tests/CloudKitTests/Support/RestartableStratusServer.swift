import CloudKit
import Foundation

/// A `stratus serve --dev` process that can be stopped and started again on the SAME data
/// directory and port, for tests of what an app keeps across a server restart (archived system
/// fields, change tokens). ``StratusServerProcess`` removes its data directory when it stops, so
/// it cannot do this. The dev server keeps its credentials across a restart on the same data
/// directory (`dev-credentials.json` is re-validated, not re-minted), so containers made after
/// ``restart()`` act as the same accounts.
final class RestartableStratusServer: @unchecked Sendable {
    let port: Int
    let data: URL
    let containerIdentifier = "iCloud.com.example.TravelJournal"
    private var process: Process?
    private var log: FileHandle?
    private var launches = 0

    /// The server's dev credentials file (what ``StratusConnection/init(devCredentials:account:)`` reads).
    var credentials: URL { data.appendingPathComponent("dev-credentials.json") }

    private init(port: Int, data: URL) {
        self.port = port
        self.data = data
    }

    /// Starts a server and runs `body` with it; the server stops and its data goes afterwards.
    static func with<T>(_ body: (RestartableStratusServer) async throws -> T) async throws -> T {
        let server = try await start()
        defer {
            server.terminate()
            try? FileManager.default.removeItem(at: server.data)
        }
        return try await body(server)
    }

    /// A container as `account` (`alice`, `bob`) of this server, read from its credentials now.
    func container(_ account: String) throws -> CKContainer {
        CKContainer(identifier: containerIdentifier, connection: try StratusConnection(devCredentials: credentials, account: account))
    }

    /// Stops the process (SIGTERM, waiting for it to exit) and starts `stratus serve --dev` again
    /// on the same data directory and port; returns once the new process listens.
    func restart() async throws {
        terminate()
        try await launch()
    }

    private static func start() async throws -> RestartableStratusServer {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-ck-restart-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        var failure: any Error = ServerFailure("stratus serve did not start; see \(data.path)")
        for _ in 0..<5 {
            let server = RestartableStratusServer(port: try unusedLoopbackPort(), data: data)
            do {
                try await server.launch()
                return server
            } catch {
                failure = error
                server.terminate()
            }
        }
        try? FileManager.default.removeItem(at: data)
        throw failure
    }

    /// Runs `stratus serve --dev` on ``data`` and ``port`` and waits for the line it prints once it
    /// has bound the port and seeded (or re-validated) the dev credentials.
    private func launch() async throws {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus")
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServerFailure("no stratus binary at \(binary.path): build the package first")
        }
        launches += 1
        let logFile = data.appendingPathComponent("server-\(launches).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--dev", "--host", "127.0.0.1", "--port", String(port), "--data", data.path]
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        self.process = process
        self.log = handle
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOf: logFile, encoding: .utf8), text.contains("Stratus listening on"),
                FileManager.default.fileExists(atPath: credentials.path)
            {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerFailure("stratus serve did not start on port \(port); see \(logFile.path)")
    }

    private func terminate() {
        if let process, process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? log?.close()
        log = nil
        process = nil
    }
}

/// A loopback port nothing listens on now (bound once to port 0, then released).
private func unusedLoopbackPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw ServerFailure("socket() failed") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    guard bound == 0 else { throw ServerFailure("bind() failed") }
    let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    guard named == 0 else { throw ServerFailure("getsockname() failed") }
    return Int(UInt16(bigEndian: address.sin_port))
}
