/// The `operationType` of a records/modify operation (lowerCamel on the wire, as Apple spells it).
public enum RecordOperationType: String, Sendable, Hashable, Codable, CaseIterable {
    /// Fails with `EXISTS` if the record exists.
    case create
    /// Changes only the given fields; requires the current `recordChangeTag`.
    case update
    /// Changes only the given fields whatever the tag; creates the record if it is missing.
    case forceUpdate
    /// Replaces all fields (the rest become null); requires the current `recordChangeTag`.
    case replace
    /// Replaces all fields whatever the tag; creates the record if it is missing.
    case forceReplace
    /// Deletes the record; requires the current `recordChangeTag`.
    case delete
    /// Deletes the record whatever the tag; deleting a missing record succeeds.
    case forceDelete

    /// Whether the operation removes the record.
    public var isDelete: Bool { self == .delete || self == .forceDelete }

    /// Whether the operation needs the record's current `recordChangeTag` (update, replace, delete).
    public var requiresChangeTag: Bool { self == .update || self == .replace || self == .delete }
}

/// One operation of a records/modify request.
public struct RecordOperation: Sendable, Hashable, Codable {
    public var operationType: RecordOperationType
    public var record: Record
    public var desiredKeys: [String]?

    public init(_ operationType: RecordOperationType, _ record: Record, desiredKeys: [String]? = nil) {
        self.operationType = operationType
        self.record = record
        self.desiredKeys = desiredKeys
    }
}

/// `POST …/records/modify`.
public struct ModifyRecordsRequest: Sendable, Hashable, Codable {
    public var operations: [RecordOperation]
    public var zoneID: ZoneID?
    /// Defaults to `true`; only custom zones commit atomically.
    public var atomic: Bool?
    public var desiredKeys: [String]?
    public var numbersAsStrings: Bool?
    /// A Stratus extension, for Apple's native framework: the app's client change token
    /// (`CKModifyRecordsOperation.clientChangeTokenData`; StratusCloudKit sends it as base64, the
    /// server keeps it as it came), kept for the caller's device if the modify changes the zone
    /// and answered with the zone's changes (``ZoneChangesPage/clientChangeToken``). A CKWS client
    /// never sends it.
    public var clientChangeToken: String?

    public init(operations: [RecordOperation], zoneID: ZoneID? = nil, atomic: Bool? = nil, desiredKeys: [String]? = nil) {
        self.operations = operations
        self.zoneID = zoneID
        self.atomic = atomic
        self.desiredKeys = desiredKeys
    }
}

extension ModifyRecordsRequest {
    /// The longest `clientChangeToken`, in Unicode code points (as JSON Schema's `maxLength`
    /// counts them): base64 of 4,096 bytes, far more than an app's token.
    public static let clientChangeTokenLimit = 5_464

    /// Why the request's `clientChangeToken` cannot be kept (too long), or `nil`.
    public var clientChangeTokenProblem: String? {
        guard let length = clientChangeToken?.unicodeScalars.count, length > Self.clientChangeTokenLimit else { return nil }
        return "clientChangeToken is \(length) characters (at most \(Self.clientChangeTokenLimit))"
    }
}

/// The response of records/modify and records/lookup: one entry per operation or name, in order.
public struct RecordsResponse: Sendable, Hashable, Codable {
    public var records: [RecordResult]
    public init(records: [RecordResult]) { self.records = records }
}

/// `POST …/records/lookup`.
public struct LookupRecordsRequest: Sendable, Hashable, Codable {
    /// One requested record: its name and an optional per-record field projection.
    public struct Item: Sendable, Hashable, Codable {
        public var recordName: String
        public var desiredKeys: [String]?
        public init(recordName: String, desiredKeys: [String]? = nil) {
            self.recordName = recordName
            self.desiredKeys = desiredKeys
        }
    }

    public var records: [Item]
    public var zoneID: ZoneID?
    public var desiredKeys: [String]?
    public var numbersAsStrings: Bool?

    public init(records: [Item], zoneID: ZoneID? = nil, desiredKeys: [String]? = nil) {
        self.records = records
        self.zoneID = zoneID
        self.desiredKeys = desiredKeys
    }
}
