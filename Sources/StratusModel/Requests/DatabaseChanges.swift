/// `POST …/changes/database`, and the older `zones/changes` (which names its token `metaSyncToken`).
public struct DatabaseChangesRequest: Sendable, Hashable, Codable {
    public var syncToken: String?
    public var resultsLimit: Int?

    public init(syncToken: String? = nil, resultsLimit: Int? = nil) {
        self.syncToken = syncToken
        self.resultsLimit = resultsLimit
    }

    private enum CodingKeys: String, CodingKey { case syncToken, metaSyncToken, resultsLimit }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.syncToken =
            try container.decodeIfPresent(String.self, forKey: .syncToken)
            ?? container.decodeIfPresent(String.self, forKey: .metaSyncToken)
        self.resultsLimit = try container.decodeIfPresent(Int.self, forKey: .resultsLimit)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(syncToken, forKey: .syncToken)
        try container.encodeIfPresent(resultsLimit, forKey: .resultsLimit)
    }
}

/// The response of changes/database: zones changed or deleted since the token.
///
/// `metaSyncToken` repeats `syncToken` for clients of the older zones/changes endpoint.
public struct DatabaseChangesResponse: Sendable, Hashable, Codable {
    public var zones: [Zone]
    public var syncToken: String
    public var moreComing: Bool
    public var metaSyncToken: String?

    public init(zones: [Zone], syncToken: String, moreComing: Bool, metaSyncToken: String? = nil) {
        self.zones = zones
        self.syncToken = syncToken
        self.moreComing = moreComing
        self.metaSyncToken = metaSyncToken
    }
}
