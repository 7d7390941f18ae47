import StratusStore
import GRDB

/// Group commit on SQLite: zone batches that arrive while the writer is busy are written
/// together in its next transaction (``GroupCommitQueue``), so N concurrent single-record saves
/// cost one commit, not N. A drain is scheduled on the database's serial writer
/// (`asyncWriteWithoutTransaction`): it writes one group, resumes each caller straight from the
/// writer, and schedules itself again while work remains, so the writer never waits for a
/// caller's task to be rescheduled and other writes interleave between groups.
final class GroupCommit: Sendable {
    typealias Write = @Sendable ([PreparedBatch], Database) -> [GroupCommitQueue.Outcome]

    private let queue: GroupCommitQueue
    private let writer: any DatabaseWriter
    private let write: Write

    init(writer: any DatabaseWriter, maximumGroup: Int = 256, maximumCost: Int = 2_000, write: @escaping Write) {
        self.queue = GroupCommitQueue(maximumGroup: maximumGroup, maximumCost: maximumCost)
        self.writer = writer
        self.write = write
    }

    /// Writes `batch` in the next group and returns its own outcome.
    func submit(_ batch: PreparedBatch) async -> GroupCommitQueue.Outcome {
        await queue.submit(batch) { scheduleDrain() }
    }

    private func scheduleDrain() {
        writer.asyncWriteWithoutTransaction { db in self.drain(db) }
    }

    private func drain(_ db: Database) {
        let group = queue.nextGroup()
        let outcomes = write(group.map(\.batch), db)
        if queue.finish(group, with: outcomes) { scheduleDrain() }
    }
}
