import CoreMetrics
import GRDB
import Synchronization

/// Group commit: zone batches that arrive while the writer is busy are written together in its
/// next transaction, so N concurrent single-record saves cost one commit, not N.
///
/// Callers queue their batch and park on a continuation. The first to find no drain scheduled
/// schedules one on the database's serial writer (`asyncWriteWithoutTransaction`); the drain
/// takes what is queued (up to ``maximumGroup`` batches and ``maximumCost`` rows), writes it,
/// resumes each caller with its own outcome straight from the writer, and schedules itself
/// again while work remains, so the writer never waits for a caller's task to be rescheduled
/// and other writes interleave between groups. No background task exists when nothing is queued.
final class GroupCommit: Sendable {
    typealias Outcome = Result<ZoneBatchResult, StoreError>
    typealias Write = @Sendable ([PreparedBatch], Database) -> [Outcome]

    private struct Waiter: Sendable {
        let batch: PreparedBatch
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State: Sendable {
        var queue: [Waiter] = []
        var drainScheduled = false
    }

    private let state = Mutex(State())
    private let writer: any DatabaseWriter
    private let write: Write
    /// The most batches one transaction takes.
    let maximumGroup: Int
    /// The most rows (``PreparedBatch/cost``) one transaction takes beyond its first batch, so
    /// a group never holds the writer much longer than its largest request needs on its own.
    let maximumCost: Int

    init(writer: any DatabaseWriter, maximumGroup: Int = 256, maximumCost: Int = 2_000, write: @escaping Write) {
        self.writer = writer
        self.maximumGroup = maximumGroup
        self.maximumCost = maximumCost
        self.write = write
    }

    /// Writes `batch` in the next group and returns its own outcome.
    func submit(_ batch: PreparedBatch) async -> Outcome {
        await withCheckedContinuation { continuation in
            let mustSchedule = state.withLock { state -> Bool in
                state.queue.append(Waiter(batch: batch, continuation: continuation))
                guard !state.drainScheduled else { return false }
                state.drainScheduled = true
                return true
            }
            if mustSchedule { scheduleDrain() }
        }
    }

    private func scheduleDrain() {
        writer.asyncWriteWithoutTransaction { db in self.drain(db) }
    }

    private func drain(_ db: Database) {
        let group = state.withLock { state -> [Waiter] in
            let count = PreparedBatch.groupCount(state.queue.lazy.map(\.batch), maximumGroup: maximumGroup, maximumCost: maximumCost)
            let taken = Array(state.queue.prefix(count))
            state.queue.removeFirst(count)
            return taken
        }
        // Made per group (one factory lookup), so it reports wherever metrics go by now, even in a
        // process whose first commit came before the server chose a backend.
        Recorder(label: "stratus_group_commit_batches", aggregate: true).record(group.count)
        let outcomes = write(group.map(\.batch), db)
        for (waiter, outcome) in zip(group, outcomes) {
            waiter.continuation.resume(returning: outcome)
        }
        let more = state.withLock { state -> Bool in
            guard !state.queue.isEmpty else {
                state.drainScheduled = false
                return false
            }
            return true
        }
        if more { scheduleDrain() }
    }
}
