import Foundation

/// The time an engine reads and waits by. Apple's engine runs on the real clock
/// (``system``); a simulation that compresses time (`stratus fuzz`) runs one faster, so a
/// server's `retryAfter` of a second passes in a fiftieth — and a wait, a held change and a
/// relaunch all agree on what time it is, since they read the same clock.
package struct SyncClock: Sendable {
    /// How many seconds of this clock pass in a real second.
    package let rate: Double

    /// Where every accelerated clock of the process starts from the real one (so two engines
    /// of one simulation, and an engine relaunched from saved state, read the same time).
    private static let origin = Date()

    /// The real clock.
    package static let system = SyncClock(rate: 1)

    /// A clock on which `rate` seconds pass in each real second (`rate` > 0).
    package init(rate: Double) {
        self.rate = rate > 0 ? rate : 1
    }

    /// The time now, on this clock.
    package var now: Date {
        guard rate != 1 else { return Date() }
        return Self.origin.addingTimeInterval(Date().timeIntervalSince(Self.origin) * rate)
    }

    /// Sleeps `seconds` of this clock (throws when the task is cancelled).
    package func sleep(seconds: Double) async throws {
        try await Task.sleep(for: .milliseconds(Int(max(0, seconds) / rate * 1000)))
    }
}
