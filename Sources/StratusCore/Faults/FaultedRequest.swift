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

    /// What the fault does to the request, in one wording for every caller (the server's fault
    /// middleware, the console's actions); each carries it out over its own transport.
    public enum Verdict: Sendable, Hashable {
        /// The request fails with this error.
        case fail(CoreError)
        /// The request waits this long, then runs.
        case delay(Duration)
        /// The request runs; the matching records of its batch fail.
        case failItems(ItemFault)
        /// The request runs to its end (a write commits); then its answer is lost.
        case dropAnswer
    }

    /// Why a request or record failed for the rule `faultID`, as every failure it injects says it.
    static func reason(_ faultID: String) -> String { "injected by fault rule \(faultID)" }

    /// This fault's verdict.
    public var verdict: Verdict {
        switch action {
        case .error(let code, let retryAfter): .fail(CoreError(code, Self.reason(faultID), retryAfter: retryAfter))
        case .latency(let milliseconds): .delay(.milliseconds(milliseconds))
        case .itemError(let code): .failItems(ItemFault(faultID: faultID, code: code, recordType: recordType))
        case .dropResponseAfterCommit: .dropAnswer
        }
    }
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
