import Foundation

extension CKSyncEngine.Configuration {
    /// Every way a simulated device's engine departs from Apple's, in one value with package
    /// access (no app sees it). Each deviation is named (``Deviation``), so a fuzz run can say
    /// which ones it ran with; the default value departs in nothing.
    package struct Simulation: Sendable {
        /// A way a simulated engine is not Apple's.
        package enum Deviation: String, Sendable, CaseIterable {
            /// Waits pass faster than real time (retries, the server's `retryAfter`, held changes).
            case compressedTime
            /// Zone change pages are smaller than the server's, so fetches stop between pages.
            case smallerChangePages
            /// The delegate hears that a zone's change token expired (Apple's engine says nothing).
            case toldOfExpiredZoneTokens
        }

        /// The clock the engine reads and waits by: the real one (Apple's behaviour) or one that
        /// runs faster, so every wait passes sooner.
        package var clock = SyncClock.system
        /// Records per zone change page (`nil`: the server's page size, as Apple's engine).
        package var resultsLimit: Int?
        /// Told when a zone's change token expired, before the engine fetches the zone again from
        /// the start: a simulated device forgets what that fetch cannot confirm.
        package var zoneChangeTokenExpired: (@Sendable (CKRecordZone.ID) async -> Void)?

        package init() {}

        /// The deviations this value makes, by name.
        package var deviations: [Deviation] {
            var made: [Deviation] = []
            if clock.rate != 1 { made.append(.compressedTime) }
            if resultsLimit != nil { made.append(.smallerChangePages) }
            if zoneChangeTokenExpired != nil { made.append(.toldOfExpiredZoneTokens) }
            return made
        }
    }
}
