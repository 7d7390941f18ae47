import CloudKit
import Foundation
import StratusProcess
import StratusServerRun

/// What both servers of CloudKit's tests are to a test — ``DevServer`` in the test process and
/// ``StratusServerProcess`` on its own — a `stratus serve --dev` data directory: the credentials
/// it seeded, containers as its accounts, and the operator's `stratus` command aimed at it.
protocol DevServerData: Sendable {
    /// The server's data directory.
    var data: URL { get }
    /// The dev container (`iCloud.com.example.TravelJournal`).
    var containerIdentifier: String { get }
}

extension DevServerData {
    /// The server's dev credentials file (what ``StratusConnection/init(devCredentials:account:)`` reads).
    var credentials: URL { DevCredentialsFile(directory: data).url }

    /// A container as `account` (`alice`, `bob`, `carol`) of this server.
    func container(_ account: String) throws -> CKContainer {
        CKContainer(identifier: containerIdentifier, connection: try StratusConnection(devCredentials: credentials, account: account))
    }

    /// Runs an operator's `stratus` command against this server (`--data` names it: the command
    /// reads the server's URL and admin token from its `dev-credentials.json`, and calls the admin
    /// API); answers its exit status. For what no app can do through CloudKit's API: quotas, fault
    /// rules, a revoked token. Waits without holding a thread: the tests' other work goes on meanwhile.
    @discardableResult
    func stratus(_ arguments: [String]) async throws -> Int32 {
        let binary = try StratusBinary.path()
        let command = try ChildProcess.spawn(binary, arguments + ["--data", data.path], output: "/dev/null")
        return await ChildProcess.ending(of: command).shellStatus
    }
}

/// The `stratus` binary beside the test bundle (the package builds it for this target).
enum StratusBinary {
    static func path() throws -> String {
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw ServerFailure("no stratus binary at \(binary): build the package first")
        }
        return binary
    }
}
