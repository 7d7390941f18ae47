/// A zone dictionary as zones/list, zones/lookup, zones/modify and changes/database return it.
public struct Zone: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    /// The zone's current point in its change history (an opaque token).
    public var syncToken: String?
    /// Whether the zone commits batches atomically (custom zones do, the default zone does not).
    public var atomic: Bool?
    /// `true` on zones a change feed reports as deleted.
    public var deleted: Bool?

    public init(zoneID: ZoneID, syncToken: String? = nil, atomic: Bool? = nil, deleted: Bool? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.atomic = atomic
        self.deleted = deleted
    }
}

/// One entry of a zones response: a zone, or the error that took its place.
public enum ZoneResult: Sendable, Hashable {
    case zone(Zone)
    case failure(ZoneError)
}

extension ZoneResult: Codable {
    private enum ProbeKeys: String, CodingKey { case serverErrorCode }

    public init(from decoder: any Decoder) throws {
        let probe = try decoder.container(keyedBy: ProbeKeys.self)
        if probe.contains(.serverErrorCode) {
            self = .failure(try ZoneError(from: decoder))
        } else {
            self = .zone(try Zone(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .zone(let zone): try zone.encode(to: encoder)
        case .failure(let error): try error.encode(to: encoder)
        }
    }
}
