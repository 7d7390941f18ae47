import StratusModel

/// What the batches of one group commit share, the same on every back end: the change sequence
/// and the zones they touched, read once per group (``remember(_:as:)``) and written back once
/// at its end (``changes``). A batch works on a copy and the group keeps it only if the batch
/// commits.
package struct GroupCommitState: Sendable {
    package private(set) var sequence: Int64
    private var zones: [ZoneKey: StoredZone] = [:]
    private var touched: Set<ZoneKey> = []
    private let startSequence: Int64

    package init(sequence: Int64) {
        self.sequence = sequence
        self.startSequence = sequence
    }

    /// The live zone as the group has read or left it.
    package func zone(_ key: ZoneKey) -> StoredZone? { zones[key] }

    /// Keeps a zone read from the store for the rest of the group.
    package mutating func remember(_ zone: StoredZone, as key: ZoneKey) { zones[key] = zone }

    /// Records what a committed batch changed: its zone's new position and the sequence.
    package mutating func committed(_ zone: StoredZone, key: ZoneKey, sequence: Int64) {
        zones[key] = zone
        touched.insert(key)
        self.sequence = sequence
    }

    /// What to write back at the group's end: the sequence and the zones whose position moved;
    /// `nil` when no batch changed anything.
    package var changes: (sequence: Int64, zones: [StoredZone])? {
        guard sequence != startSequence else { return nil }
        return (sequence, touched.compactMap { zones[$0] })
    }
}
