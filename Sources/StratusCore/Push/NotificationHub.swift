import Foundation
import ServiceLifecycle
import StratusModel
import Synchronization

/// One recipient's notification feed in one container environment.
public struct FeedKey: Sendable, Hashable {
    public var recipient: String
    public var container: String
    public var environment: ContainerEnvironment

    public init(recipient: String, container: String, environment: ContainerEnvironment) {
        self.recipient = recipient
        self.container = container
        self.environment = environment
    }
}

/// Wakes the long-polls and streams waiting on a feed when notifications are appended to it.
///
/// The feed itself is in the store; the hub only says "look again". In one process it is
/// ``LocalNotificationHub``; across instances it would carry the same signal over the database
/// (PostgreSQL's `LISTEN`/`NOTIFY`).
public protocol NotificationHub: Sendable {
    /// Says that `feeds` hold notifications up to `position`.
    func publish(_ feeds: Set<FeedKey>, through position: Int64)
    /// The newest position published for `feed` (0 when none since start): read it before
    /// reading the feed, then wait after it, and no notification can slip between.
    func latest(_ feed: FeedKey) -> Int64
    /// Returns once `feed` holds a notification after `position`, or when `timeout` passes, or
    /// the task is cancelled. - Returns: whether the feed moved.
    func wait(for feed: FeedKey, after position: Int64, timeout: Duration) async -> Bool
    /// The server is going away: lets every waiter go, and later waits return at once.
    func close()
    /// Whether ``close()`` was called.
    var isClosed: Bool { get }
}

/// The in-process hub: waiters are continuations keyed by feed, woken in one pass. Timeouts are
/// kept as deadlines and swept a few times a second by the hub's own service (``run()``, in the
/// application's group) while any waiter is held, so ten thousand held polls cost ten thousand
/// continuations, not ten thousand timers.
public final class LocalNotificationHub: NotificationHub, Service {
    private struct Waiter {
        var after: Int64
        var deadline: ContinuousClock.Instant
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var waiters: [FeedKey: [UInt64: Waiter]] = [:]
        var latest: [FeedKey: Int64] = [:]
        /// Waiters cancelled before they were registered.
        var cancelled: Set<UInt64> = []
        var nextID: UInt64 = 0
        var sweeping = false
        var closed = false
    }

    /// How often timed-out waiters are let go (their timeout is that much late at most).
    static let sweepInterval = Duration.milliseconds(100)

    private let state = Mutex(State())
    /// Rung when a first waiter arrives and no sweep runs.
    private let doorbell: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    public init() {
        (doorbell, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Sweeps while waiters are held, each time the first one arrives, until a graceful shutdown.
    public func run() async {
        for await _ in doorbell.cancelOnGracefulShutdown() { await sweep() }
    }

    /// The number of waiters held (for tests and metrics).
    public var waiterCount: Int { state.withLock { $0.waiters.values.reduce(0) { $0 + $1.count } } }

    public func latest(_ feed: FeedKey) -> Int64 {
        state.withLock { $0.latest[feed] ?? 0 }
    }

    public func publish(_ feeds: Set<FeedKey>, through position: Int64) {
        let woken = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            var woken: [CheckedContinuation<Bool, Never>] = []
            for feed in feeds {
                state.latest[feed] = max(state.latest[feed] ?? 0, position)
                guard let waiters = state.waiters[feed] else { continue }
                var kept: [UInt64: Waiter] = [:]
                for (id, waiter) in waiters {
                    if waiter.after < position { woken.append(waiter.continuation) } else { kept[id] = waiter }
                }
                state.waiters[feed] = kept.isEmpty ? nil : kept
            }
            return woken
        }
        for continuation in woken { continuation.resume(returning: true) }
    }

    public func wait(for feed: FeedKey, after position: Int64, timeout: Duration) async -> Bool {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        let deadline = ContinuousClock.now + timeout
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let (answer, startSweeper) = state.withLock { state -> (Bool?, Bool) in
                    if let latest = state.latest[feed], latest > position { return (true, false) }
                    if state.cancelled.remove(id) != nil || Task.isCancelled || state.closed { return (false, false) }
                    state.waiters[feed, default: [:]][id] = Waiter(after: position, deadline: deadline, continuation: continuation)
                    defer { state.sweeping = true }
                    return (nil, !state.sweeping)
                }
                if let answer { continuation.resume(returning: answer) }
                if startSweeper { ring.yield() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let waiter = state.waiters[feed]?.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                if state.waiters[feed]?.isEmpty == true { state.waiters[feed] = nil }
                return waiter
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    public func close() {
        let all = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.closed = true
            defer { state.waiters = [:] }
            return state.waiters.values.flatMap { $0.values.map(\.continuation) }
        }
        for continuation in all { continuation.resume(returning: false) }
    }

    /// Lets timed-out waiters go, while there are any.
    private func sweep() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.sweepInterval)
            let now = ContinuousClock.now
            let (expired, more) = state.withLock { state -> ([CheckedContinuation<Bool, Never>], Bool) in
                var expired: [CheckedContinuation<Bool, Never>] = []
                for (feed, waiters) in state.waiters {
                    let late = waiters.filter { $0.value.deadline <= now }
                    guard !late.isEmpty else { continue }
                    expired += late.values.map(\.continuation)
                    let kept = waiters.filter { $0.value.deadline > now }
                    state.waiters[feed] = kept.isEmpty ? nil : kept
                }
                state.sweeping = !state.waiters.isEmpty
                return (expired, state.sweeping)
            }
            for continuation in expired { continuation.resume(returning: false) }
            guard more else { return }
        }
    }
}
