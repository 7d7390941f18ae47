import Logging
import ServiceLifecycle
@testable import StratusCore
import StratusModel
import StratusStore
import StratusStoreSQLite
import Synchronization
import Testing

/// Core's background loops as services, without sockets: each stops on a graceful shutdown
/// only after the work it was handed is done.
@Suite struct BackgroundServiceTests {
    let zone = ZoneKey(database: DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice"), name: "Z")

    @Test func pushDeliveryDrainsItsQueueBeforeItStops() async throws {
        let store = try SQLiteStore()
        try await store.migrate()
        let services = StratusServices(store: store)
        let group = ServiceGroup(configuration: .init(services: [services.push.delivery], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        for index in 0..<1_000 {
            services.push.publish(CommitEvent(zone: zone, author: "_alice", originDevice: nil, previousSeq: Int64(index), touched: ["r\(index)"]))
        }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(services.activity.entries(ActivityLog.Filter(limit: 1)).latest == 1_000)
    }

    @Test func theRelaySendsAnnouncementsInOrderAndAllOfThemBeforeItStops() async throws {
        let signals = RecordedSignals()
        let relay = InstanceRelay(signals: signals)
        let group = ServiceGroup(configuration: .init(services: [relay], logger: Logger(label: "test")))
        let running = Task { try await group.run() }
        let announced = (0..<500).map { "t\($0)" }
        for token in announced { relay.announce(.tokens, token) }
        await group.triggerGracefulShutdown()
        try await running.value
        #expect(signals.sent == announced.map { "tokens " + $0 })
    }
}

/// Signals that keep what was broadcast, in order, and hear nothing.
final class RecordedSignals: InstanceSignals {
    private let log = Mutex<[String]>([])
    var sent: [String] { log.withLock { $0 } }

    func broadcast(_ message: String) async { log.withLock { $0.append(message) } }

    func messages() -> AsyncStream<String> { AsyncStream { _ in } }
}
