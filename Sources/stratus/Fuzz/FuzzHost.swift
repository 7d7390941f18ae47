import Foundation
import StratusFuzz
import StratusCore
import StratusModel
import StratusProcess
import StratusServerRun

/// The fuzzer's own server: in this process (`ServerRun`), on a free port, over a fresh
/// temporary SQLite store. ``crash()`` cuts it off without a graceful shutdown — requests in
/// flight are cut, nothing is flushed but what the store committed — and starts it again on the
/// same store and port, as a server killed and restarted by its supervisor.
actor FuzzHost {
    private let directory: URL
    private let composition: ServerComposition
    private var run: ServerRun

    private init(directory: URL, composition: ServerComposition, run: ServerRun) {
        self.directory = directory
        self.composition = composition
        self.run = run
    }

    /// Starts a server; answers it (its ``FuzzServer/crash`` restarts it) and how to stop it.
    static func start(buggify: BuggifySetting?) async throws -> (server: FuzzServer, stop: @Sendable () async -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-fuzz-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let composition = ServerComposition(buggify: buggify, console: false)
        // A port of its own from the start: the sign-in and share links name it, before and after a crash.
        let run = try await ServerRun.start(directory: directory, port: try FreePort.pick(), composition: composition)
        let adminToken = run.services.identity.newAdminToken()
        try await run.services.identity.addAdminToken(adminToken)
        let host = FuzzHost(directory: directory, composition: composition, run: run)
        var server = FuzzServer(url: "http://127.0.0.1:\(run.port)", adminToken: adminToken)
        server.crash = { try await host.crash() }
        return (server, { await host.stop() })
    }

    /// Cuts the server off mid-work and starts it again on the same store and port.
    func crash() async throws {
        await run.cut()
        run = try await ServerRun.start(directory: directory, port: run.port, composition: composition)
    }

    /// Stops gracefully (a run's verdict is in by then) and removes the store.
    func stop() async {
        try? await run.stop()
        try? FileManager.default.removeItem(at: directory)
    }
}
