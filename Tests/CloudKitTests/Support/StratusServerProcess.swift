import Foundation
#if canImport(Glibc)
import Glibc
#endif
import CloudKit

/// A real `stratus serve --dev` process on a free port with its own data directory, for a test
/// that talks to it only through CloudKit's API. Its accounts are the dev server's: alice, bob.
final class StratusServerProcess: @unchecked Sendable {
    let port: Int
    let data: URL
    private let process: Process

    /// The server's dev credentials file (what ``StratusConnection/init(devCredentials:account:)`` reads).
    var credentials: URL { data.appendingPathComponent("dev-credentials.json") }
    let containerIdentifier = "iCloud.com.example.TravelJournal"

    private init(port: Int, data: URL, process: Process) {
        self.port = port
        self.data = data
        self.process = process
    }

    /// Starts a server and runs `body` with it; the server stops afterwards, whatever happens.
    static func with<T>(_ extra: [String] = [], _ body: (StratusServerProcess) async throws -> T) async throws -> T {
        let server = try await start(extra)
        defer { server.stop() }
        return try await body(server)
    }

    /// A container as `account` (`alice`, `bob`) of this server.
    func container(_ account: String) throws -> CKContainer {
        CKContainer(identifier: containerIdentifier, connection: try StratusConnection(devCredentials: credentials, account: account))
    }

    /// The `stratus` binary beside the test bundle (the package builds it for this target).
    static var binary: URL { URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus") }

    /// Runs an operator's `stratus` command against this server (`--data` names it); answers
    /// its exit status. For what no app can do through CloudKit's API: quotas, say.
    @discardableResult
    func stratus(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments + ["--data", data.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func start(_ extra: [String]) async throws -> StratusServerProcess {
        let binary = Self.binary
        guard FileManager.default.isExecutableFile(atPath: binary.path) else {
            throw ServerFailure("no stratus binary at \(binary.path): build the package first")
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-ck-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        for _ in 0..<5 {
            let port = try freePort()
            let process = Process()
            process.executableURL = binary
            process.arguments = ["serve", "--dev", "--host", "127.0.0.1", "--port", String(port), "--data", data.path] + extra
            let log = data.appendingPathComponent("server.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let handle = try FileHandle(forWritingTo: log)
            process.standardOutput = handle
            process.standardError = handle
            try process.run()
            let server = StratusServerProcess(port: port, data: data, process: process)
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline, process.isRunning {
                if FileManager.default.fileExists(atPath: server.credentials.path), canConnect(port) { return server }
                try await Task.sleep(for: .milliseconds(50))
            }
            server.stop(removingData: false)
        }
        throw ServerFailure("stratus serve did not start; see \(data.path)/server.log")
    }

    func stop() { stop(removingData: true) }

    private func stop(removingData: Bool) {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        if removingData { try? FileManager.default.removeItem(at: data) }
    }

    /// A port nothing listens on now (bound once to port 0, then released).
    private static func freePort() throws -> Int {
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

    private static func canConnect(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }
}

struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
