import CoreMetrics
import Synchronization

/// The queue of a group commit, the same on every back end: zone batches wait here while a
/// transaction is open and the next one takes them together, oldest first (at most
/// `maximumGroup` batches, and no more than `maximumCost` rows beyond the first, so a group never
/// holds the writer much longer than its largest request needs alone). One drain runs while
/// anything is queued; none exists otherwise. Each back end supplies how a drain starts and how
/// a group is written.
package final class GroupCommitQueue: Sendable {
    package typealias Outcome = Result<ZoneBatchResult, StoreError>

    /// A queued batch and the caller waiting for its outcome.
    package struct Waiter: Sendable {
        package let batch: PreparedBatch
        fileprivate let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State: Sendable {
        var queue: [Waiter] = []
        var draining = false
    }

    private let state = Mutex(State())
    let maximumGroup: Int
    let maximumCost: Int

    package init(maximumGroup: Int, maximumCost: Int) {
        self.maximumGroup = maximumGroup
        self.maximumCost = maximumCost
    }

    /// Queues `batch` and returns its own outcome; `startDrain` runs when no drain is running.
    package func submit(_ batch: PreparedBatch, startDrain: () -> Void) async -> Outcome {
        await withCheckedContinuation { continuation in
            let mustStart = state.withLock { state -> Bool in
                state.queue.append(Waiter(batch: batch, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if mustStart { startDrain() }
        }
    }

    /// The next group to write, taken off the queue.
    package func nextGroup() -> [Waiter] {
        state.withLock { state in
            let count = PreparedBatch.groupCount(state.queue.lazy.map(\.batch), maximumGroup: maximumGroup, maximumCost: maximumCost)
            defer { state.queue.removeFirst(count) }
            return Array(state.queue.prefix(count))
        }
    }

    /// Answers each waiter of a written group with its outcome; whether more is queued (the
    /// drain goes on) or not (it ends, and the next batch starts another).
    package func finish(_ group: [Waiter], with outcomes: [Outcome]) -> Bool {
        // Made per group (one factory lookup), so it reports wherever metrics go by now.
        Recorder(label: "stratus_group_commit_batches", aggregate: true).record(group.count)
        for (waiter, outcome) in zip(group, outcomes) { waiter.continuation.resume(returning: outcome) }
        return state.withLock { state in
            guard !state.queue.isEmpty else {
                state.draining = false
                return false
            }
            return true
        }
    }
}
