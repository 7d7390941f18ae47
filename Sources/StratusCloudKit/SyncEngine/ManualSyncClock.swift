import Foundation
import Synchronization

/// A clock a test holds (postgres-nio's `MockClock` is the model): its time moves only when the
/// test ``advance(by:)``s it, and a sleep on it ends only then — so an engine test waits out a
/// `retryAfter`, a back-off or the send delay in no real time, and never sleeps. A test waits
/// for the engine to be waiting (``waitForSleepers(_:)``), then moves time on.
package final class ManualSyncClock: Sendable {
    private struct Sleeper {
        var deadline: Date
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Date
        var sleepers: [Int: Sleeper] = [:]
        var nextID = 0
        /// Sleeps cancelled before they registered.
        var cancelled: Set<Int> = []
        /// Tests waiting for at least `count` sleepers.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// A clock at `now` (by default 2001-01-01, `Date`'s reference date).
    package init(now: Date = Date(timeIntervalSinceReferenceDate: 0)) {
        state = Mutex(State(now: now))
    }

    /// The engine's clock reading this one.
    package var clock: SyncClock { SyncClock(manual: self) }

    /// The time now.
    package var now: Date { state.withLock { $0.now } }

    /// How many sleeps wait on this clock.
    package var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves time on by `seconds`, ending every sleep whose deadline it reaches.
    package func advance(by seconds: Double) {
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            state.now = state.now.addingTimeInterval(seconds)
            let now = state.now
            let ready = state.sleepers.filter { $0.value.deadline <= now }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once at least `count` sleeps wait on this clock.
    package func waitForSleepers(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                if state.sleepers.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// Sleeps until `seconds` from now on this clock (throws `CancellationError` when the task is cancelled).
    func sleep(seconds: Double) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Start { case cancelled, due, waiting([CheckedContinuation<Void, Never>]) }
                let start = state.withLock { state -> Start in
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    let deadline = state.now.addingTimeInterval(max(0, seconds))
                    if deadline <= state.now { return .due }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    let count = state.sleepers.count
                    let woken = state.watchers.filter { $0.count <= count }.map(\.continuation)
                    state.watchers.removeAll { $0.count <= count }
                    return .waiting(woken)
                }
                switch start {
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .due: continuation.resume()
                case .waiting(let watchers): for watcher in watchers { watcher.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let sleeper = state.sleepers.removeValue(forKey: id) else {
                    state.cancelled.insert(id)
                    return nil
                }
                return sleeper
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
