/// A zone dictionary as zones/list, zones/lookup, zones/modify and changes/database return it.
public struct Zone: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    /// The zone's current point in its change history (an opaque token).
    public var syncToken: String?
    /// Whether the zone commits batches atomically (custom zones do, the default zone does not).
    public var atomic: Bool?
    /// `true` on zones a change feed reports as deleted.
    public var deleted: Bool?
    /// Why a deleted zone went (Stratus addition, in `changes/database`): deleted, purged or encryptedDataReset.
    public var deletionReason: ZoneDeletionReason?

    public init(zoneID: ZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil, deletionReason: ZoneDeletionReason? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
        self.deletionReason = deletionReason
    }
}
