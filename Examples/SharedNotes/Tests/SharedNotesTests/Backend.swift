import Foundation
import SharedNotes
import StratusTesting
#if os(Linux)
import CloudKit
#else
import StratusCloudKit
#endif

/// The server a test runs against: the one `stratus exec` started (`STRATUS_CREDENTIALS` is in
/// the environment then), else one started in this process with StratusTesting. Folders are
/// named afresh by each test, so tests share an `exec` server without meeting.
struct Backend {
    let containerIdentifier: String
    private let connect: @Sendable (String) throws -> StratusConnection
    private let stopServer: @Sendable () async throws -> Void
    private let directory: URL

    static func start() async throws -> Backend {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("shared-notes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let environment = ProcessInfo.processInfo.environment
        if let file = environment["STRATUS_CREDENTIALS"] {
            let credentials = URL(fileURLWithPath: file)
            return Backend(
                containerIdentifier: environment["STRATUS_CONTAINER"] ?? "iCloud.com.example.TravelJournal",
                connect: { try StratusConnection(devCredentials: credentials, account: $0) }, stopServer: {}, directory: directory
            )
        }
        let server = try await StratusTestServer.start()
        return Backend(
            containerIdentifier: "iCloud.com.example.TravelJournal", connect: { try server.connection(account: $0) },
            stopServer: { try await server.stop() }, directory: directory
        )
    }

    /// Runs `body` with a backend, stopped (an in-process server) and cleaned up afterwards.
    static func with(_ body: (Backend) async throws -> Void) async throws {
        let backend = try await start()
        do {
            try await body(backend)
        } catch {
            try? await backend.stop()
            throw error
        }
        try await backend.stop()
    }

    /// A device of `account` (alice, bob, carol): a notes app with a store of its own named
    /// `device`, syncing when told. Launching the same device again reads the same store.
    func device(_ device: String, of account: String) throws -> NotesApp {
        let container = CKContainer(identifier: containerIdentifier, connection: try connect(account))
        return try NotesApp(container: container, storeURL: directory.appendingPathComponent("\(account)-\(device).json"), automaticallySync: false)
    }

    func stop() async throws {
        try? FileManager.default.removeItem(at: directory)
        try await stopServer()
    }
}

/// A folder name of one test's own.
func freshFolder(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8))" }
