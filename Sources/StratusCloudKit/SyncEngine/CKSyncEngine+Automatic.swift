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
        /// State reports waiting their turn: ``cancelAll()`` leaves them (only ``stop()`` ends them).
        var reports: [UUID: Task<Void, Never>] = [:]
        var stopped = false
        /// The automatic work whose retry is waiting (one of each kind at a time).
        var waitingRetries: Set<SyncRules.AutomaticWork> = []
        /// How many times in a row each kind of automatic work failed.
        var failures: [SyncRules.AutomaticWork: Int] = [:]
        /// How to cancel each fetch or send the app started that has not ended.
        var appStarted: [UUID: @Sendable () -> Void] = [:]
    }

    private let tasks = Mutex(Tasks())

    func listen(_ task: Task<Void, Never>) {
        tasks.withLock { if $0.stopped { task.cancel() } else { $0.listener = task } }
    }

    /// Runs `work` as a task of its own, kept only until it ends (or everything stops).
    func schedule(_ work: @escaping @Sendable () async -> Void) {
        start(work, in: \.scheduled)
    }

    /// Runs `work` — a state report the app must get to persist what it added — as a task of its
    /// own that cancelling the syncs (``cancelAll()``) leaves alone: a report is not a sync, and
    /// one dropped would leave a change out of the state the app relaunches from.
    func scheduleReport(_ work: @escaping @Sendable () async -> Void) {
        start(work, in: \.reports)
    }

    private func start(_ work: @escaping @Sendable () async -> Void, in table: WritableKeyPath<Tasks, [UUID: Task<Void, Never>]>) {
        let id = UUID()
        // Made under the lock: the task's own removal waits until it is in the table.
        tasks.withLock { tasks in
            let task = Task { [weak self] in
                await work()
                self?.finished(id)
            }
            if tasks.stopped { task.cancel() } else { tasks[keyPath: table][id] = task }
        }
    }

    /// Runs `work` as a task of its own unless a retry of `kind` is already waiting (failures
    /// meanwhile do not pile up retries); `work` calls ``retryStarted(_:)`` when its wait is over.
    func scheduleRetry(_ kind: SyncRules.AutomaticWork, _ work: @escaping @Sendable () async -> Void) {
        let claimed = tasks.withLock { tasks in tasks.waitingRetries.insert(kind).inserted }
        if claimed { schedule(work) }
    }

    /// A retry of `kind` stopped waiting: the next failure may schedule another.
    func retryStarted(_ kind: SyncRules.AutomaticWork) {
        tasks.withLock { tasks in _ = tasks.waitingRetries.remove(kind) }
    }

    /// Counts a failure of `kind`; answers how many in a row (this one included).
    func countFailure(_ kind: SyncRules.AutomaticWork) -> Int {
        tasks.withLock { tasks -> Int in
            let count = tasks.failures[kind, default: 0] + 1
            tasks.failures[kind] = count
            return count
        }
    }

    /// `kind` succeeded: its next failure is the first in a row again.
    func countSuccess(_ kind: SyncRules.AutomaticWork) {
        tasks.withLock { tasks in tasks.failures[kind] = nil }
    }

    private func finished(_ id: UUID) {
        tasks.withLock { tasks in
            tasks.scheduled[id] = nil
            tasks.reports[id] = nil
        }
    }

    /// Runs a fetch or send the app started in a task of its own, which ``cancelAll()`` cancels:
    /// its caller then gets `operationCancelled` (what it sent before stays sent, the rest pending).
    func runCancellable<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let id = UUID()
        let task = Task { try await work() }
        tasks.withLock { $0.appStarted[id] = { task.cancel() } }
        defer { _ = tasks.withLock { $0.appStarted.removeValue(forKey: id) } }
        do {
            return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
        } catch {
            // What the server answered item by item before the cancellation is the caller's to see.
            guard task.isCancelled, (error as? CKError)?.code != .partialFailure else { throw error }
            throw CKError(.operationCancelled, "the sync engine's operations were cancelled")
        }
    }

    /// Cancels the scheduled sends and fetches and those the app started (the push listener
    /// goes on: later pushes still fetch).
    func cancelAll() {
        let appStarted = tasks.withLock { tasks in
            tasks.scheduled.values.forEach { $0.cancel() }
            tasks.scheduled = [:]
            return Array(tasks.appStarted.values)
        }
        appStarted.forEach { $0() }
    }

    func stop() {
        tasks.withLock { tasks in
            tasks.stopped = true
            tasks.listener?.cancel()
            tasks.scheduled.values.forEach { $0.cancel() }
            tasks.scheduled = [:]
            tasks.reports.values.forEach { $0.cancel() }
            tasks.reports = [:]
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
        let connection = self.connection
        let clock = configuration.simulation.clock
        let weakEngine = WeakEngine(self)
        schedule.listen(Task {
            await connection.listenForPushes(clock: clock, while: { weakEngine.engine != nil }, pushed: { weakEngine.engine?.scheduleFetch() })
        })
    }

    /// A send of everything pending, `seconds` from now on the engine's clock (at least
    /// ``sendDelay`` of real time).
    func scheduleSend(after seconds: Double) {
        guard configuration.automaticallySync else { return }
        let weakEngine = WeakEngine(self)
        let clock = configuration.simulation.clock
        schedule.schedule {
            try? await clock.sleep(seconds: seconds, plus: CKSyncEngine.sendDelay)
            guard !Task.isCancelled, let engine = weakEngine.engine else { return }
            try? await engine.sendChanges(SendChangesOptions(), reason: .scheduled)
        }
    }

    /// A fetch now; one that fails is tried again after a back-off (``fetchAutomatically()``).
    func scheduleFetch() {
        let weakEngine = WeakEngine(self)
        schedule.schedule {
            guard !Task.isCancelled, let engine = weakEngine.engine else { return }
            await engine.fetchAutomatically()
        }
    }

    /// Fetches; a failure (no network at launch, a server restarting, no account yet) tries
    /// again after ``SyncRules/retryDelay(after:attempt:)`` on the engine's clock, until a fetch
    /// succeeds. A fetch the app started reports its failure to the app instead.
    func fetchAutomatically() async {
        do {
            try await fetchChanges(FetchChangesOptions(), reason: .scheduled)
            schedule.countSuccess(.fetch)
        } catch {
            retry(.fetch, afterFailing: error) { engine in await engine.fetchAutomatically() }
        }
    }

    /// Saves the database subscription apart from a fetch — after a fetch could not, so a first
    /// launch offline subscribes once the server answers — tried again after a back-off until
    /// it is saved.
    func subscribeAutomatically() async {
        do {
            try await gate.run {
                if !self.accountChecked.isSet { try await self.checkAccount() }
                try await self.ensureSubscription()
            }
            schedule.countSuccess(.subscription)
        } catch {
            retry(.subscription, afterFailing: error) { engine in await engine.subscribeAutomatically() }
        }
    }

    /// After a send: when it kept changes pending for a reason no retry time covers, an
    /// automatic engine sends again after ``SyncRules/resendDelay(keptPending:failures:)``
    /// instead of waiting for the next `add` or a relaunch.
    func sendEnded(keptPending: Bool) {
        guard keptPending else {
            schedule.countSuccess(.send)
            return
        }
        let failures = schedule.countFailure(.send)
        guard !Task.isCancelled, let delay = SyncRules.resendDelay(keptPending: keptPending, failures: failures) else { return }
        retry(.send, after: delay) { engine in _ = try? await engine.sendChanges(SendChangesOptions(), reason: .scheduled) }
    }

    /// Automatic work `kind` failed with `error`: unless cancelled, counts the failure and runs
    /// `work` again after ``SyncRules/retryDelay(after:attempt:)``.
    func retry(_ kind: SyncRules.AutomaticWork, afterFailing error: any Error, _ work: @escaping @Sendable (CKSyncEngine) async -> Void) {
        guard !Task.isCancelled else { return }
        retry(kind, after: SyncRules.retryDelay(after: CKError.wrapping(error), attempt: schedule.countFailure(kind)), work)
    }

    /// Runs `work` on the engine `seconds` from now on its clock, in automatic mode, unless a
    /// retry of `kind` already waits. The task holds the engine weakly while it waits.
    func retry(_ kind: SyncRules.AutomaticWork, after seconds: Double, _ work: @escaping @Sendable (CKSyncEngine) async -> Void) {
        guard configuration.automaticallySync else { return }
        let weakEngine = WeakEngine(self)
        let clock = configuration.simulation.clock
        schedule.scheduleRetry(kind) {
            try? await clock.sleep(seconds: seconds)
            weakEngine.engine?.schedule.retryStarted(kind)
            guard !Task.isCancelled, let engine = weakEngine.engine else { return }
            await work(engine)
        }
    }
}
