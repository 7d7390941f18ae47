import StratusModel

/// A zone as the store keeps it: its incarnation id and its points in the change sequence.
public struct StoredZone: Sendable, Hashable {
    /// The incarnation id: a zone deleted and created again under the same name gets a new one.
    public var id: Int64
    public var name: String
    public var atomic: Bool
    public var createdSeq: Int64
    /// The sequence value of the zone's latest record change (or its creation).
    public var lastSeq: Int64
    /// Set when the zone was deleted; its records are gone.
    public var deletedSeq: Int64?
    /// Zone tokens below this sequence value are expired (tombstones under it were dropped).
    public var compactedBelowSeq: Int64
    /// Why a deleted zone went (`nil` while it lives).
    public var deletionReason: ZoneDeletionReason?

    public init(
        id: Int64, name: String, atomic: Bool, createdSeq: Int64, lastSeq: Int64, deletedSeq: Int64?, compactedBelowSeq: Int64,
        deletionReason: ZoneDeletionReason? = nil
    ) {
        self.id = id
        self.name = name
        self.atomic = atomic
        self.createdSeq = createdSeq
        self.lastSeq = lastSeq
        self.deletedSeq = deletedSeq
        self.compactedBelowSeq = compactedBelowSeq
        self.deletionReason = deletionReason
    }

    /// The point of the zone in its database's change feed.
    public var feedSeq: Int64 { deletedSeq ?? lastSeq }
    public var isDeleted: Bool { deletedSeq != nil }
}
