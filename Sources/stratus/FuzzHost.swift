import Foundation
import Logging
import ServiceLifecycle
import StratusCore
import StratusFuzz
import StratusModel
import StratusServer
import StratusStore
import StratusStoreSQLite

/// The fuzzer's own server: in this process, on a free port, over a fresh temporary SQLite
/// store. ``crash()`` ends it without a graceful shutdown — requests in flight are cut, nothing
/// is flushed but what the store committed — and starts it again on the same store and port,
/// as a server killed and restarted by its supervisor.
actor FuzzHost {
    private let directory: URL
    private let buggify: BuggifySetting?
    private var port = 0
    private var running: Task<Void, any Error>?

    private init(directory: URL, buggify: BuggifySetting?) {
        self.directory = directory
        self.buggify = buggify
    }

    /// Starts a server; answers it (its ``FuzzServer/crash`` restarts it) and how to stop it.
    static func start(buggify: BuggifySetting?) async throws -> (server: FuzzServer, stop: @Sendable () async -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-fuzz-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let host = FuzzHost(directory: directory, buggify: buggify)
        let adminToken = try await host.launch(firstTime: true)
        var server = FuzzServer(url: "http://127.0.0.1:\(await host.port)", adminToken: adminToken)
        server.crash = { try await host.crash() }
        return (server, { await host.stop() })
    }

    /// Opens the store and serves it; answers the admin token it minted (first launch only).
    @discardableResult
    private func launch(firstTime: Bool) async throws -> String {
        let store = try SQLiteStore(path: directory.appendingPathComponent("stratus.sqlite").path)
        try await store.migrate()
        let blobs = try FileBlobStore(directory: directory.appendingPathComponent("blobs", isDirectory: true))
        // Only what would make a run's verdict wrong is worth a line: a crash cuts requests and
        // background saves off by design.
        var logger = Logger(label: "stratus-fuzz-server")
        logger.logLevel = .critical
        let services = StratusServices(
            store: store, blobs: blobs, configuration: CoreConfiguration(limits: .strict, buggify: buggify), logger: logger
        )
        var adminToken = ""
        if firstTime {
            adminToken = services.identity.newAdminToken()
            try await services.identity.addAdminToken(adminToken)
        }
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(services, host: "127.0.0.1", port: port, logger: logger) { port in continuation.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        running = Task { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let bound = await iterator.next() else { throw FuzzError("the fuzzer's server did not start") }
        port = bound
        return adminToken
    }

    /// Cuts the server off mid-work (its task cancelled, no graceful shutdown) and starts it
    /// again on the same store and port.
    func crash() async throws {
        running?.cancel()
        _ = await running?.result
        try await launch(firstTime: false)
    }

    func stop() async {
        running?.cancel()
        _ = await running?.result
        running = nil
        try? FileManager.default.removeItem(at: directory)
    }
}
