/// Which requests a fault rule applies to: every key given must match (a missing key matches anything).
///
/// `endpoint` is the CKWS path after the database segment (`records/modify`, `changes/zone`,
/// `zones/list`, …); `zoneName` and `recordType` are read from the request body.
public struct FaultMatch: Sendable, Hashable, Codable {
    /// Every CKWS endpoint a rule may name, as the path after the database segment.
    public static let endpoints = [
        "assets/rereference", "assets/upload", "changes/database", "changes/zone", "records/accept", "records/changes",
        "records/lookup", "records/modify", "records/query", "records/resolve", "subscriptions/list", "subscriptions/lookup",
        "subscriptions/modify", "tokens/create", "tokens/register", "users/caller", "users/current", "users/discover",
        "users/lookup/email", "users/lookup/id", "zones/changes", "zones/list", "zones/lookup", "zones/modify",
    ]

    public var container: String?
    public var environment: ContainerEnvironment?
    public var database: DatabaseScope?
    public var endpoint: String?
    public var userRecordName: String?
    public var zoneName: String?
    public var recordType: String?

    public init(
        container: String? = nil, environment: ContainerEnvironment? = nil, database: DatabaseScope? = nil, endpoint: String? = nil,
        userRecordName: String? = nil, zoneName: String? = nil, recordType: String? = nil
    ) {
        self.container = container
        self.environment = environment
        self.database = database
        self.endpoint = endpoint
        self.userRecordName = userRecordName
        self.zoneName = zoneName
        self.recordType = recordType
    }

    /// Whether the rule needs the request body to decide (zone or record type named).
    public var readsBody: Bool { zoneName != nil || recordType != nil }
}

/// What a fault does when it fires; on the wire an object with exactly one of its keys:
/// `{"error": {"serverErrorCode", "retryAfter"?}}`, `{"itemError": {"serverErrorCode"}}`,
/// `{"latencyMs": N}` or `{"dropResponseAfterCommit": true}`.
public enum FaultAction: Sendable, Hashable, Codable {
    /// The whole request fails with this code (its HTTP status), `retryAfter` in the body and the
    /// `Retry-After` header; nothing is done.
    case error(ServerErrorCode, retryAfter: Int?)
    /// In records/modify, the matching records fail with this code (the rest of the batch commits
    /// as its zone would: all-or-nothing in an atomic zone).
    case itemError(ServerErrorCode)
    /// The request is answered this many milliseconds late.
    case latency(milliseconds: Int)
    /// The request is carried out (a write commits) and the connection closed without an answer.
    case dropResponseAfterCommit

    private enum CodingKeys: String, CodingKey { case error, itemError, latencyMs, dropResponseAfterCommit }

    private struct ErrorSpec: Codable {
        var serverErrorCode: ServerErrorCode
        var retryAfter: Int?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.allKeys.count == 1, let key = container.allKeys.first else {
            throw DecodingError.dataCorruptedError(
                forKey: CodingKeys.error, in: container,
                debugDescription: "action takes exactly one of error, itemError, latencyMs, dropResponseAfterCommit"
            )
        }
        switch key {
        case .error:
            let spec = try container.decode(ErrorSpec.self, forKey: .error)
            self = .error(spec.serverErrorCode, retryAfter: spec.retryAfter)
        case .itemError:
            self = .itemError(try container.decode(ErrorSpec.self, forKey: .itemError).serverErrorCode)
        case .latencyMs:
            self = .latency(milliseconds: try container.decode(Int.self, forKey: .latencyMs))
        case .dropResponseAfterCommit:
            guard try container.decode(Bool.self, forKey: .dropResponseAfterCommit) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .dropResponseAfterCommit, in: container, debugDescription: "dropResponseAfterCommit must be true"
                )
            }
            self = .dropResponseAfterCommit
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .error(let code, let retryAfter):
            try container.encode(ErrorSpec(serverErrorCode: code, retryAfter: retryAfter), forKey: .error)
        case .itemError(let code):
            try container.encode(ErrorSpec(serverErrorCode: code), forKey: .itemError)
        case .latency(let milliseconds):
            try container.encode(milliseconds, forKey: .latencyMs)
        case .dropResponseAfterCommit:
            try container.encode(true, forKey: .dropResponseAfterCommit)
        }
    }
}

/// `POST /stratus/v1/admin/faults`: a rule to add. With `count` it fires that many times and
/// retires; with `probability` each matching request fires with that chance, decided by `seed`
/// and the request's position among the rule's matches only (so a run repeats exactly).
public struct CreateFaultRequest: Sendable, Hashable, Codable {
    public var match: FaultMatch?
    public var action: FaultAction
    public var count: Int?
    public var probability: Double?
    public var seed: UInt64?

    public init(match: FaultMatch? = nil, action: FaultAction, count: Int? = nil, probability: Double? = nil, seed: UInt64? = nil) {
        self.match = match
        self.action = action
        self.count = count
        self.probability = probability
        self.seed = seed
    }
}

/// A fault rule as the admin API lists it: the request that made it, and how it has fared.
public struct FaultRule: Sendable, Hashable, Codable {
    public var faultID: String
    public var match: FaultMatch
    public var action: FaultAction
    public var count: Int?
    public var probability: Double?
    public var seed: UInt64?
    /// Requests the rule matched so far, fired or not.
    public var matched: Int
    /// Times it fired.
    public var fired: Int
    /// Whether it fired `count` times and no longer applies.
    public var retired: Bool

    public init(
        faultID: String, match: FaultMatch, action: FaultAction, count: Int?, probability: Double?, seed: UInt64?,
        matched: Int = 0, fired: Int = 0, retired: Bool = false
    ) {
        self.faultID = faultID
        self.match = match
        self.action = action
        self.count = count
        self.probability = probability
        self.seed = seed
        self.matched = matched
        self.fired = fired
        self.retired = retired
    }
}

/// `GET /stratus/v1/admin/faults`: every rule, in the order they are tried, and the buggify
/// setting the server runs with.
public struct FaultsResponse: Sendable, Hashable, Codable {
    public var faults: [FaultRule]
    public var buggify: BuggifySetting?

    public init(faults: [FaultRule], buggify: BuggifySetting?) {
        self.faults = faults
        self.buggify = buggify
    }
}

/// `stratus serve --buggify RATE --seed N`: transient faults injected at that rate on every endpoint.
public struct BuggifySetting: Sendable, Hashable, Codable {
    public var rate: Double
    public var seed: UInt64
    /// Requests seen so far (the position of the next draw).
    public var drawn: Int
    /// Faults injected so far.
    public var fired: Int

    public init(rate: Double, seed: UInt64, drawn: Int = 0, fired: Int = 0) {
        self.rate = rate
        self.seed = seed
        self.drawn = drawn
        self.fired = fired
    }
}

/// The answer to `DELETE /stratus/v1/admin/faults[/{faultID}]`: how many rules went.
public struct DeleteFaultsResponse: Sendable, Hashable, Codable {
    public var deleted: Int
    public init(deleted: Int) { self.deleted = deleted }
}
