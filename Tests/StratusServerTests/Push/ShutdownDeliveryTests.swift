import Foundation
import Logging
import ServiceLifecycle
import StratusCore
import StratusModel
import StratusServer
import StratusStore
import StratusStoreSQLite
import Testing

/// A graceful shutdown delivers every change published before it: push delivery is a service of
/// the application's group, stopped after the HTTP server, and drains its queue before it returns.
@Suite struct ShutdownDeliveryTests {
    @Test func aGracefulShutdownDeliversEveryPublishedChangeBeforeTheApplicationStops() async throws {
        let store = try SQLiteStore()
        try await store.migrate()
        let services = StratusServices(store: store)
        var logger = Logger(label: "shutdown-test")
        logger.logLevel = .warning
        let (listening, bound) = AsyncStream.makeStream(of: Int.self)
        let app = buildApplication(services, host: "127.0.0.1", port: 0, logger: logger) { port in bound.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
        let running = Task { try await group.run() }
        for await _ in listening { break }

        // A backlog the worker cannot have cleared when the shutdown starts.
        let zone = ZoneKey(database: DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice"), name: "Z")
        let published = 1_500
        for index in 0..<published {
            services.push.publish(CommitEvent(zone: zone, author: "_alice", originDevice: nil, previousSeq: Int64(index), touched: ["r\(index)"]))
        }
        await group.triggerGracefulShutdown()
        try await running.value

        let delivered = services.activity.entries(ActivityLog.Filter(limit: 1)).latest
        #expect(delivered == Int64(published), "every change published before the shutdown was delivered before the application stopped")
    }
}
