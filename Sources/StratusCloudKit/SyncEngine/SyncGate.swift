import Foundation
import Synchronization

/// Lets one fetch or send of an engine run at a time, in the order they asked (an actor alone
/// would interleave them at every `await`).
actor SyncGate {
    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// Runs `body` once every earlier caller's body ended.
    func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if busy {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            busy = true
        }
        defer { handOver() }
        // Cancelled while it waited its turn (`cancelOperations()`): it does not start.
        try Task.checkCancellation()
        return try await body()
    }

    private func handOver() {
        if waiting.isEmpty { busy = false } else { waiting.removeFirst().resume() }
    }
}

/// Retries of what CloudKit calls transient: the network, an unavailable service, rate limits,
/// a busy zone — after the server's `retryAfter` when it gave one. The house's one retry: the
/// engine's, and a simulated device's sign-in (as the OS asks again).
package enum SyncRetry {
    /// Runs `call`, retrying what ``SyncRules/inlineRetryDelay(after:attempt:attempts:)`` says to
    /// retry, waiting on `clock` (the real one but in simulations that compress time, or a test's).
    package static func run<T>(attempts: Int = 4, clock: SyncClock, _ call: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await call()
            } catch let error as CKError {
                guard let delay = SyncRules.inlineRetryDelay(after: error, attempt: attempt, attempts: attempts) else { throw error }
                try await clock.sleep(seconds: delay)
                attempt += 1
            }
        }
    }
}

/// A flag set and cleared from any thread.
final class LockedFlag: Sendable {
    private let value = Mutex(false)

    var isSet: Bool { value.withLock { $0 } }

    func set() { value.withLock { $0 = true } }

    func clear() { value.withLock { $0 = false } }
}
