import Synchronization

/// Group commit: zone batches that arrive while another commit is running are written together
/// in the next transaction, so N concurrent single-record saves cost one disk sync, not N.
///
/// The first caller becomes the leader and writes its batch with everything queued; followers
/// park on a continuation. When a leader has written, it resumes its followers with their results
/// and hands leadership to the oldest caller still queued, then returns its own result: no caller
/// waits for more than the commit in progress plus its own, and no background task is needed.
final class GroupCommit<Batch: Sendable, Outcome: Sendable>: Sendable {
    private enum Turn: Sendable {
        case done(Outcome)
        case lead
    }

    private struct Waiter: Sendable {
        let batch: Batch
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State: Sendable {
        var queue: [Waiter] = []
        var leading = false
    }

    private let state = Mutex(State())
    /// The most batches one transaction takes.
    private let maximumGroup: Int

    init(maximumGroup: Int = 256) {
        self.maximumGroup = maximumGroup
    }

    /// Writes `batch`, grouped with whatever else is waiting. `write` receives the group in
    /// arrival order and returns one outcome per batch, in that order.
    func submit(_ batch: Batch, write: ([Batch]) async -> [Outcome]) async -> Outcome {
        let leadsNow = state.withLock { state -> Bool in
            guard !state.leading else { return false }
            state.leading = true
            return true
        }
        if !leadsNow {
            let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
                let promoted = state.withLock { state -> Bool in
                    guard state.leading else {
                        state.leading = true
                        return true
                    }
                    state.queue.append(Waiter(batch: batch, continuation: continuation))
                    return false
                }
                if promoted { continuation.resume(returning: .lead) }
            }
            if case .done(let outcome) = turn { return outcome }
        }
        let followers = state.withLock { state -> [Waiter] in
            let taken = Array(state.queue.prefix(maximumGroup - 1))
            state.queue.removeFirst(taken.count)
            return taken
        }
        let outcomes = await write([batch] + followers.map(\.batch))
        for (follower, outcome) in zip(followers, outcomes.dropFirst()) {
            follower.continuation.resume(returning: .done(outcome))
        }
        let next = state.withLock { state -> Waiter? in
            guard !state.queue.isEmpty else {
                state.leading = false
                return nil
            }
            return state.queue.removeFirst()
        }
        next?.continuation.resume(returning: .lead)
        return outcomes[0]
    }
}
