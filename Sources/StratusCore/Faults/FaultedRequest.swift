import StratusModel

/// What fault rules match a request on: its database, endpoint and caller, and the zones and
/// record types its body names (read only when a rule asks for them).
public struct FaultedRequest: Sendable, Hashable {
    public var database: DatabaseRef
    /// The CKWS path after the database segment, e.g. `records/modify`.
    public var endpoint: String
    public var userRecordName: String?
    public var zoneNames: [String]
    public var recordTypes: [String]

    public init(database: DatabaseRef, endpoint: String, userRecordName: String?, zoneNames: [String] = [], recordTypes: [String] = []) {
        self.database = database
        self.endpoint = endpoint
        self.userRecordName = userRecordName
        self.zoneNames = zoneNames
        self.recordTypes = recordTypes
    }
}

/// A fault that fired for one request: which rule (`buggify` for the global switch) and what to do.
public struct FiredFault: Sendable, Hashable {
    public var faultID: String
    public var action: FaultAction
    /// For an item error: the record type whose records fail (`nil`: every record of the batch).
    public var recordType: String?
}

/// A per-item fault for records/modify, carried from the server's fault check to the record
/// service in the request's scope: the matching records fail with `code`, nothing else changes.
public struct ItemFault: Sendable, Hashable {
    public var faultID: String
    public var code: ServerErrorCode
    public var recordType: String?

    public init(faultID: String, code: ServerErrorCode, recordType: String?) {
        self.faultID = faultID
        self.code = code
        self.recordType = recordType
    }
}

extension FaultMatch {
    /// Whether a request meets every condition the rule names.
    func matches(_ request: FaultedRequest) -> Bool {
        if let container, container != request.database.container { return false }
        if let environment, environment != request.database.environment { return false }
        if let database, database != request.database.scope { return false }
        if let endpoint, endpoint != request.endpoint { return false }
        if let userRecordName, userRecordName != request.userRecordName { return false }
        if let zoneName, !request.zoneNames.contains(zoneName) { return false }
        if let recordType, !request.recordTypes.contains(recordType) { return false }
        return true
    }
}
