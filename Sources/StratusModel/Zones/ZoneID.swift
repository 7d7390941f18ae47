/// Identifies a record zone: `{ "zoneName", "ownerRecordName", "zoneType" }`.
///
/// Decoding accepts `ownerName` for `ownerRecordName` (some clients send it); encoding emits
/// `ownerRecordName` and `zoneType` as Apple's servers do.
public struct ZoneID: Sendable, Hashable {
    /// The name of every database's default zone.
    public static let defaultZoneName = "_defaultZone"
    /// The owner name a client may use for "the caller" (`CKCurrentUserDefaultName`).
    public static let currentUserOwnerName = "__defaultOwner__"

    public var zoneName: String
    public var ownerRecordName: String?

    public init(zoneName: String, ownerRecordName: String? = nil) {
        self.zoneName = zoneName
        self.ownerRecordName = ownerRecordName
    }

    /// `DEFAULT_ZONE` or `REGULAR_CUSTOM_ZONE`, derived from the name (emitted, ignored on input).
    public var zoneType: String { isDefaultZone ? "DEFAULT_ZONE" : "REGULAR_CUSTOM_ZONE" }

    /// The default zone of a database.
    public static func defaultZone(owner: String? = nil) -> ZoneID {
        ZoneID(zoneName: defaultZoneName, ownerRecordName: owner)
    }

    public var isDefaultZone: Bool { zoneName == ZoneID.defaultZoneName }
}

extension ZoneID: Codable {
    private enum CodingKeys: String, CodingKey { case zoneName, ownerRecordName, ownerName, zoneType }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.zoneName = try container.decode(String.self, forKey: .zoneName)
        self.ownerRecordName =
            try container.decodeIfPresent(String.self, forKey: .ownerRecordName)
            ?? container.decodeIfPresent(String.self, forKey: .ownerName)
        // Ignored on input, but only Apple's two spellings are accepted.
        if let type = try container.decodeIfPresent(String.self, forKey: .zoneType), !ZoneID.zoneTypes.contains(type) {
            throw DecodingError.dataCorruptedError(
                forKey: .zoneType, in: container, debugDescription: "zoneType must be DEFAULT_ZONE or REGULAR_CUSTOM_ZONE, not '\(type)'"
            )
        }
    }

    /// The `zoneType` values CloudKit knows.
    static let zoneTypes: Set<String> = ["DEFAULT_ZONE", "REGULAR_CUSTOM_ZONE"]

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoneName, forKey: .zoneName)
        try container.encodeIfPresent(ownerRecordName, forKey: .ownerRecordName)
        try container.encode(zoneType, forKey: .zoneType)
    }
}
