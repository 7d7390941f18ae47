import Foundation
import StratusCloudKit
import StratusCore
import StratusModel
import StratusProcess
import StratusServerRun

/// A Stratus development server inside the test process: a free port on 127.0.0.1, a temporary
/// SQLite store, the accounts alice, bob and carol, the default container
/// (`iCloud.com.example.TravelJournal`) and any others asked for — what `stratus serve --dev`
/// seeds, without a process to start or a file to clean up. Several may run in one process;
/// each is its own server with its own data.
///
/// ```swift
/// let server = try await StratusTestServer.start(containers: ["iCloud.com.example.Notes"])
/// let phone = try server.container("iCloud.com.example.Notes", account: "alice")
/// // … CloudKit code under test, against `phone` …
/// try await server.stop()
/// ```
///
/// Next to it, what a test makes happen to the server (fault rules, expired change tokens, a
/// full account) is one call each: see the extension in `StratusTestServer+Events.swift`.
public final class StratusTestServer: Sendable {
    /// Where the server answers.
    public let url: URL
    /// The dev credentials file (`dev-credentials.json`), as `stratus serve --dev` writes it:
    /// what `STRATUS_CREDENTIALS` and ``StratusConnection/init(devCredentials:account:)`` read.
    public let credentialsFile: URL
    /// The server's admin token (the admin API, the console, `stratus` commands with `--admin-token`).
    public let adminToken: String
    let credentials: DevCredentials
    private let run: ServerRun
    private let directory: URL

    var services: StratusServices { run.services }

    private init(url: URL, credentials: DevCredentials, directory: URL, run: ServerRun) {
        self.url = url
        self.credentialsFile = directory.appendingPathComponent("dev-credentials.json")
        self.adminToken = credentials.adminToken
        self.credentials = credentials
        self.directory = directory
        self.run = run
    }

    /// Starts a server with the default container and `containers`, and returns once it answers.
    public static func start(containers: [String] = []) async throws -> StratusTestServer {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-test-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        do {
            // A port another process takes between its pick and the bind: the next one.
            return try await FreePort.starting(anotherPortMayCure: { !($0 is StratusTestServerError || $0 is ServerRun.Failure) }) { port in
                try await start(directory: directory, port: port, containers: containers)
            }
        } catch {
            try? FileManager.default.removeItem(at: directory)
            if let stopped = error as? ServerRun.Failure { throw StratusTestServerError(stopped.description) }
            throw error
        }
    }

    private static func start(directory: URL, port: Int, containers: [String]) async throws -> StratusTestServer {
        let run = try await ServerRun.start(directory: directory, port: port, composition: .development)
        do {
            let credentials = try await run.seedDevelopment(containers: containers).credentials
            guard let url = URL(string: run.url) else { throw StratusTestServerError("bad server URL \(run.url)") }
            return StratusTestServer(url: url, credentials: credentials, directory: directory, run: run)
        } catch {
            try? await run.stop()
            throw StratusTestServerError("the server could not be seeded: \(error)")
        }
    }

    /// A connection as `account` (alice, bob, carol, or an email), with every seeded container's tokens.
    public func connection(account: String) throws -> StratusConnection {
        try StratusConnection(devCredentials: credentialsFile, account: account)
    }

    /// Container `identifier` (the default one or one `start(containers:)` named) as `account`.
    public func container(_ identifier: String, account: String) throws -> CKContainer {
        CKContainer(identifier: identifier, connection: try connection(account: account))
    }

    /// The default container (`iCloud.com.example.TravelJournal`) as `account`.
    public func container(account: String) throws -> CKContainer {
        try container(credentials.container, account: account)
    }

    /// Stops the server (requests in flight are answered first) and removes its files.
    public func stop() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        try await run.stop()
    }
}

/// Why a ``StratusTestServer`` could not start, or could not do what a test asked.
public struct StratusTestServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
