import Foundation
import NIOCore
import StratusModel
import Synchronization

/// The tasks of an engine that syncs on its own: the push listener and the scheduled sends and
/// fetches. They hold the engine weakly, so releasing it ends them.
final class SyncSchedule: Sendable {
    private struct Tasks {
        var listener: Task<Void, Never>?
        var scheduled: [UUID: Task<Void, Never>] = [:]
        var stopped = false
    }

    private let tasks = Mutex(Tasks())

    func listen(_ task: Task<Void, Never>) {
        tasks.withLock { if $0.stopped { task.cancel() } else { $0.listener = task } }
    }

    /// Runs `work` as a task of its own, kept only until it ends (or everything stops).
    func schedule(_ work: @escaping @Sendable () async -> Void) {
        let id = UUID()
        // Made under the lock: the task's own removal waits until it is in the table.
        tasks.withLock { tasks in
            let task = Task { [weak self] in
                await work()
                self?.finished(id)
            }
            if tasks.stopped { task.cancel() } else { tasks.scheduled[id] = task }
        }
    }

    private func finished(_ id: UUID) {
        _ = tasks.withLock { $0.scheduled.removeValue(forKey: id) }
    }

    func cancelScheduled() {
        tasks.withLock { tasks in
            tasks.scheduled.values.forEach { $0.cancel() }
            tasks.scheduled = [:]
        }
    }

    func stop() {
        tasks.withLock { tasks in
            tasks.stopped = true
            tasks.listener?.cancel()
            tasks.scheduled.values.forEach { $0.cancel() }
            tasks.scheduled = [:]
        }
    }
}

/// A weak reference to an engine, for its own tasks.
struct WeakEngine: Sendable {
    weak var engine: CKSyncEngine?
    init(_ engine: CKSyncEngine) { self.engine = engine }
}

extension CKSyncEngine {
    /// How soon after changes are added a send starts (changes added meanwhile go with it).
    static let sendDelay: Duration = .milliseconds(100)

    /// Fetches now, sends what a restored state holds pending (what a transient failure held
    /// back, once its retry time comes) and whenever changes are added, and listens for pushes.
    func startAutomaticSync() {
        scheduleFetch()
        let now = self.now
        for delay in SyncRules.launchSends(state.serialization, now: now) { scheduleSend(after: delay) }
        let scope = database.databaseScope
        let container = database.container
        let weakEngine = WeakEngine(self)
        schedule.listen(Task {
            await CKSyncEngine.listen(container: container, scope: scope) { weakEngine.engine }
        })
    }

    /// A send of everything pending, `seconds` from now on the engine's clock (at least
    /// ``sendDelay`` of real time).
    func scheduleSend(after seconds: Double) {
        guard configuration.automaticallySync else { return }
        let weakEngine = WeakEngine(self)
        let clock = configuration.simulation.clock
        schedule.schedule {
            try? await Task.sleep(for: CKSyncEngine.sendDelay)
            try? await clock.sleep(seconds: seconds)
            guard !Task.isCancelled, let engine = weakEngine.engine else { return }
            try? await engine.sendChanges(SendChangesOptions(), reason: .scheduled)
        }
    }

    func scheduleFetch() {
        let weakEngine = WeakEngine(self)
        schedule.schedule {
            guard !Task.isCancelled, let engine = weakEngine.engine else { return }
            try? await engine.fetchChanges(FetchChangesOptions(), reason: .scheduled)
        }
    }

    /// Long-polls a push token's webcourier feed and fetches whenever it names this engine's
    /// database, for as long as the engine lives.
    private static func listen(container: CKContainer, scope: CKDatabase.Scope, engine: @escaping @Sendable () -> CKSyncEngine?) async {
        var url: String?
        var cursor: String?
        while !Task.isCancelled, engine() != nil {
            do {
                if url == nil {
                    let created = try await container.post("tokens/create", PushTokenRequest(), as: PushTokenResponse.self)
                    url = created.webcourierURL
                }
                guard let feedURL = url, let transport = container.transport else { return }
                var poll = feedURL + (feedURL.contains("?") ? "&" : "?") + "timeout=10"
                if let cursor { poll += "&cursor=\(cursor)" }
                let feed = try await transport.get(url: poll, as: NotificationFeed.self, timeout: .seconds(20))
                cursor = feed.cursor
                let wire = scope.wire
                if feed.notifications.contains(where: { $0.databaseScope == wire || $0.isPruned }) { engine()?.scheduleFetch() }
            } catch {
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}
