import Foundation

/// The time an engine reads and waits by. Apple's engine runs on the real clock
/// (``system``); a simulation that compresses time (`stratus fuzz`) runs one faster, so a
/// server's `retryAfter` of a second passes in a fiftieth — and a wait, a held change and a
/// relaunch all agree on what time it is, since they read the same clock. A test holds one
/// (``ManualSyncClock``): its time moves only when the test moves it.
package struct SyncClock: Sendable {
    /// How many seconds of this clock pass in a real second (1 for a held clock, whose rate is
    /// the test's).
    package let rate: Double
    private let manual: ManualSyncClock?

    /// Where every accelerated clock of the process starts from the real one (so two engines
    /// of one simulation, and an engine relaunched from saved state, read the same time).
    private static let origin = Date()

    /// The real clock.
    package static let system = SyncClock(rate: 1)

    /// A clock on which `rate` seconds pass in each real second (`rate` > 0).
    package init(rate: Double) {
        self.rate = rate > 0 ? rate : 1
        self.manual = nil
    }

    /// The clock a test holds.
    init(manual: ManualSyncClock) {
        self.rate = 1
        self.manual = manual
    }

    /// Whether a test holds this clock.
    package var isHeld: Bool { manual != nil }

    /// The time now, on this clock.
    package var now: Date {
        if let manual { return manual.now }
        return Self.time(atReal: Date(), rate: rate)
    }

    /// The time a clock of `rate` reads when the real clock reads `real`: the real clock's, or
    /// the time since the common origin run `rate` times as fast.
    static func time(atReal real: Date, rate: Double) -> Date {
        guard rate != 1 else { return real }
        return origin.addingTimeInterval(real.timeIntervalSince(origin) * rate)
    }

    /// The real time a wait takes on a clock of `rate`: `real` of it, then `seconds` of the clock.
    static func realWait(seconds: Double, plus real: Duration, rate: Double) -> Duration {
        real + .milliseconds(Int(max(0, seconds) / rate * 1000))
    }

    /// Sleeps `real` of real time and then `seconds` of this clock — on a held clock both count
    /// as its time (throws when the task is cancelled).
    package func sleep(seconds: Double, plus real: Duration = .zero) async throws {
        if let manual {
            let realSeconds = Double(real.components.seconds) + Double(real.components.attoseconds) / 1e18
            try await manual.sleep(seconds: max(0, seconds) + realSeconds)
            return
        }
        try await Task.sleep(for: Self.realWait(seconds: seconds, plus: real, rate: rate))
    }
}
