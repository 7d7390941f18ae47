/// `POST …/changes/zone`: record changes for one or more zones.
public struct ZoneChangesRequest: Sendable, Hashable, Codable {
    /// Per-zone options; they override the top-level ones.
    public struct ZoneOptions: Sendable, Hashable, Codable {
        public var zoneID: ZoneID
        public var syncToken: String?
        public var desiredKeys: [String]?
        public var desiredRecordTypes: [String]?
        public var reverse: Bool?
        public var resultsLimit: Int?

        public init(zoneID: ZoneID, syncToken: String? = nil, resultsLimit: Int? = nil) {
            self.zoneID = zoneID
            self.syncToken = syncToken
            self.resultsLimit = resultsLimit
        }
    }

    public var zones: [ZoneOptions]
    public var desiredKeys: [String]?
    public var desiredRecordTypes: [String]?
    public var reverse: Bool?
    public var resultsLimit: Int?
    public var numbersAsStrings: Bool?

    public init(zones: [ZoneOptions], resultsLimit: Int? = nil) {
        self.zones = zones
        self.resultsLimit = resultsLimit
    }

    private enum CodingKeys: String, CodingKey {
        case zones, desiredKeys, desiredRecordTypes, reverse, resultsLimit, numbersAsStrings, numberAsStrings
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        zones = try container.decode([ZoneOptions].self, forKey: .zones)
        desiredKeys = try container.decodeIfPresent([String].self, forKey: .desiredKeys)
        desiredRecordTypes = try container.decodeIfPresent([String].self, forKey: .desiredRecordTypes)
        reverse = try container.decodeIfPresent(Bool.self, forKey: .reverse)
        resultsLimit = try container.decodeIfPresent(Int.self, forKey: .resultsLimit)
        // Both spellings are read, so either one of the wrong type is refused.
        let spelledApple = try container.decodeIfPresent(Bool.self, forKey: .numberAsStrings)
        numbersAsStrings = try container.decodeIfPresent(Bool.self, forKey: .numbersAsStrings) ?? spelledApple
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zones, forKey: .zones)
        try container.encodeIfPresent(desiredKeys, forKey: .desiredKeys)
        try container.encodeIfPresent(desiredRecordTypes, forKey: .desiredRecordTypes)
        try container.encodeIfPresent(reverse, forKey: .reverse)
        try container.encodeIfPresent(resultsLimit, forKey: .resultsLimit)
        try container.encodeIfPresent(numbersAsStrings, forKey: .numbersAsStrings)
    }
}

/// One zone's page of changes: the latest version of each changed record and tombstones, in
/// sequence order, and the token to continue from.
public struct ZoneChangesPage: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    public var records: [Record]
    public var syncToken: String
    public var moreComing: Bool
    /// The client change token the caller's device last sent with a modify that changed the
    /// zone (``ModifyRecordsRequest/clientChangeToken``): answered only to a client that asks
    /// (``WireExtensions/clientChangeTokens``).
    public var clientChangeToken: String?

    public init(zoneID: ZoneID, records: [Record], syncToken: String, moreComing: Bool) {
        self.zoneID = zoneID
        self.records = records
        self.syncToken = syncToken
        self.moreComing = moreComing
    }
}

/// The response of changes/zone.
public struct ZoneChangesResponse: Sendable, Hashable, Codable {
    public var zones: [ZoneChangesResult]
    public init(zones: [ZoneChangesResult]) { self.zones = zones }
}

/// `POST …/records/changes`: the older single-zone change feed.
public struct RecordChangesRequest: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    public var syncToken: String?
    public var resultsLimit: Int?
    public var desiredKeys: [String]?
    public var desiredRecordTypes: [String]?
    public var numbersAsStrings: Bool?

    public init(zoneID: ZoneID, syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.zoneID = zoneID
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }
}

/// The response of records/changes.
public struct RecordChangesResponse: Sendable, Hashable, Codable {
    public var records: [Record]
    public var syncToken: String
    public var moreComing: Bool
    public var reverse: Bool

    public init(records: [Record], syncToken: String, moreComing: Bool) {
        self.records = records
        self.syncToken = syncToken
        self.moreComing = moreComing
        self.reverse = false
    }
}
