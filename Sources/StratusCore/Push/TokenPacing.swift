import Synchronization

/// When each token was last answered with notifications, so answers to one token are at least
/// ``interval`` apart: a device on a busy feed gets batches, not one answer per change.
final class TokenPacing: Sendable {
    let interval: Duration
    private let answered = Mutex<[String: ContinuousClock.Instant]>([:])

    init(interval: Duration = .milliseconds(200)) {
        self.interval = interval
    }

    /// Whether `token` may be answered now; if so, notes the answer.
    func answerNow(_ token: String) -> Bool {
        earliestAnswer(token) == nil
    }

    /// Whether an answer to `token` must wait: if so, waits out the interval and returns `true`
    /// (read the feed again, it may hold more); else notes the answer and returns `false`.
    func holdBack(_ token: String) async -> Bool {
        guard let earliest = earliestAnswer(token) else { return false }
        do {
            try await Task.sleep(until: earliest)
        } catch {
            answered.withLock { $0[token] = nil }  // cancelled: answer at once
        }
        return true
    }

    /// `nil` (and the answer noted) when `token` may be answered now, else when it may.
    private func earliestAnswer(_ token: String) -> ContinuousClock.Instant? {
        let now = ContinuousClock.now
        return answered.withLock { answered -> ContinuousClock.Instant? in
            if let last = answered[token], now < last + interval { return last + interval }
            if answered.count > 100_000 { answered = answered.filter { now < $0.value + interval } }
            answered[token] = now
            return nil
        }
    }
}
