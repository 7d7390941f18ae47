import Synchronization

/// What a store deciding its batches with ``ReadAheadBatchRows`` did: how many batches it decided
/// and how many engine runs they took. A test reads it to know the rerun path ran.
package final class ReadAheadTally: Sendable {
    private let counts = Mutex((batches: 0, runs: 0))

    package init() {}

    /// Batches decided so far.
    package var batches: Int { counts.withLock { $0.batches } }
    /// Engine runs so far: more than ``batches`` once any batch read a row.
    package var runs: Int { counts.withLock { $0.runs } }

    /// Notes a batch decided in `runs` runs.
    package func decided(inRuns runs: Int) {
        counts.withLock { counts in
            counts.batches += 1
            counts.runs += runs
        }
    }
}
