import Foundation
import StratusCore
import StratusModel
import StratusServerRun
import StratusStore
import Testing

/// A graceful shutdown delivers every change published before it: push delivery is a service of
/// the application's group, stopped after the HTTP server, and drains its queue before it returns.
@Suite struct ShutdownDeliveryTests {
    @Test func aGracefulShutdownDeliversEveryPublishedChangeBeforeTheApplicationStops() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-shutdown-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try await ServerRun.start(directory: directory, port: 0, composition: ServerComposition(console: false))

        // A backlog the worker cannot have cleared when the shutdown starts.
        let zone = ZoneKey(database: DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice"), name: "Z")
        let published = 1_500
        for index in 0..<published {
            run.services.push.publish(CommitEvent(zone: zone, author: "_alice", originDevice: nil, previousSeq: Int64(index), touched: ["r\(index)"]))
        }
        try await run.stop()

        let delivered = run.services.activity.entries(ActivityLog.Filter(limit: 1)).latest
        #expect(delivered == Int64(published), "every change published before the shutdown was delivered before the application stopped")
    }
}
