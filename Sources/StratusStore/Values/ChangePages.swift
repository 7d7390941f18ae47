/// One page of a zone's change feed.
public struct ZoneChangePage: Sendable, Hashable {
    /// The latest version of each record changed after the token, tombstones included, in sequence order.
    public var records: [StoredRecord]
    /// Where the next page starts (the token to hand out).
    public var throughSeq: Int64
    public var moreComing: Bool
    public var zone: StoredZone

    public init(records: [StoredRecord], throughSeq: Int64, moreComing: Bool, zone: StoredZone) {
        self.records = records
        self.throughSeq = throughSeq
        self.moreComing = moreComing
        self.zone = zone
    }
}

/// One page of a database's zone change feed.
public struct DatabaseChangePage: Sendable, Hashable {
    /// Zones created, changed or deleted after the token, in feed order, each name once.
    public var zones: [StoredZone]
    public var throughSeq: Int64
    public var moreComing: Bool
    /// Deleted zones are listed only when they went after this sequence value: the current one
    /// for a fetch without a token (no deletions), which the pages that continue it keep.
    public var deletionsAfter: Int64

    public init(zones: [StoredZone], throughSeq: Int64, moreComing: Bool, deletionsAfter: Int64 = 0) {
        self.zones = zones
        self.throughSeq = throughSeq
        self.moreComing = moreComing
        self.deletionsAfter = deletionsAfter
    }
}
