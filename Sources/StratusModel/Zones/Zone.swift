/// A zone dictionary as zones/list, zones/lookup, zones/modify and changes/database return it.
public struct Zone: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    /// The zone's current point in its change history (an opaque token).
    public var syncToken: String?
    /// Whether the zone commits batches atomically (custom zones do, the default zone does not).
    public var atomic: Bool?
    /// `true` on zones a change feed reports as deleted.
    public var deleted: Bool?
    /// Why a deleted zone went (Stratus addition, in `changes/database`, for every client: no Apple
    /// client reads the name): deleted, purged or encryptedDataReset.
    public var deletionReason: ZoneDeletionReason?
    /// The zone's zone-wide share (a Stratus extension, ``WireExtensions/zoneShares``): written
    /// only for a client that asks, so a CKWS client sees exactly Apple's keys.
    public var share: RecordPointer?

    public init(
        zoneID: ZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil, deletionReason: ZoneDeletionReason? = nil,
        share: RecordPointer? = nil
    ) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
        self.deletionReason = deletionReason
        self.share = share
    }

    private enum CodingKeys: String, CodingKey { case zoneID, syncToken, atomic, deleted, deletionReason, share }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneID, forKey: .zoneID)
        try container.encodeIfPresent(syncToken, forKey: .syncToken)
        try container.encodeIfPresent(atomic, forKey: .atomic)
        try container.encodeIfPresent(deleted, forKey: .deleted)
        try container.encodeIfPresent(deletionReason, forKey: .deletionReason)
        if encoder.wireExtensions.contains(.zoneShares) {
            try container.encodeIfPresent(share, forKey: .share)
        }
    }
}
