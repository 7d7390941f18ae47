import StratusModel
import StratusStore

/// A committed change to one zone, as push needs to know it: where, by whom, what changed.
/// Built by the services after the store commits; a batch that rolled back makes none.
public struct CommitEvent: Sendable, Hashable {
    /// The zone in its owner's database.
    public var zone: ZoneKey
    /// The account whose request made the change.
    public var author: String
    /// The device that made it (`X-Stratus-Device-ID`): its own tokens are not notified.
    public var originDevice: String?
    /// The change sequence before the change: participants whose access changed above it are notified.
    public var previousSeq: Int64
    /// The records written, for query subscriptions.
    public var changes: [RecordChange]
    /// Every record name the change touched (share records included), for hierarchy shares.
    public var touched: Set<String>

    public init(
        zone: ZoneKey, author: String, originDevice: String?, previousSeq: Int64,
        changes: [RecordChange] = [], touched: Set<String> = []
    ) {
        self.zone = zone
        self.author = author
        self.originDevice = originDevice
        self.previousSeq = previousSeq
        self.changes = changes
        self.touched = touched.union(changes.map(\.name))
    }

    /// The event of a committed zone batch, or `nil` when it wrote nothing.
    public init?(_ result: ZoneBatchResult, batch: ZoneBatch) {
        guard result.committed else { return nil }
        var touched = Set<String>()
        for (outcome, write) in zip(result.outcomes, batch.writes) {
            if case .failed = outcome { continue }
            touched.insert(write.name)
        }
        self.init(
            zone: batch.zone, author: batch.author.userRecordName, originDevice: batch.author.deviceID,
            previousSeq: result.previousSeq, changes: result.changes, touched: touched
        )
    }
}
