import StratusCloudKit
import StratusModel

/// An error from the server in CloudKit's terms: `code` mirrors `CKError.Code`.
///
/// `serverRecordChanged` carries the server's record (and, when the client knows them, its own
/// record and the ancestor it started from); `partialFailure` carries per-item errors;
/// `requestRateLimited`, `zoneBusy` and `serviceUnavailable` carry `retryAfter` when the server
/// gave one. A zone the user purged answers `userDeletedZone` (the server's `ckErrorCode` 28); a
/// `zoneNotFound` whose zone went in an encrypted-data reset has ``userDidResetEncryptedData``
/// set (`CKErrorUserDidResetEncryptedDataKey` natively).
public struct CloudError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `CKError.Code`: the client modules share one set of codes (and one mapping to them).
    public typealias Code = CKError.Code

    public var code: Code
    public var reason: String
    /// Seconds to wait before retrying, when the server said.
    public var retryAfter: Double?
    /// The server's web code (`CONFLICT`, `ACCESS_DENIED`, …), when the server answered.
    public var serverErrorCode: ServerErrorCode?
    public var serverRecord: Record?
    public var clientRecord: Record?
    public var ancestorRecord: Record?
    /// Per-item errors of a `partialFailure`, by record name.
    public var partialErrors: [String: CloudError]
    /// Set on a `zoneNotFound` caused by the user resetting their encrypted data: the zone's
    /// encrypted values are unreadable for good (the server's `userDidResetEncryptedData`).
    public var userDidResetEncryptedData = false

    public init(
        _ code: Code, _ reason: String, retryAfter: Double? = nil, serverErrorCode: ServerErrorCode? = nil,
        serverRecord: Record? = nil, partialErrors: [String: CloudError] = [:]
    ) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.serverErrorCode = serverErrorCode
        self.serverRecord = serverRecord
        self.partialErrors = partialErrors
    }

    public var description: String { "CloudError.\(code): \(reason)" }

    /// Whether retrying the same request later may succeed (what CKSyncEngine retries itself).
    public var isTransient: Bool { code.isTransient }

    /// The CKError a CKWS error code stands for, by the house's one mapping (StratusCloudKit's;
    /// `ckErrorCode` decides where the web code is ambiguous).
    public init(
        serverErrorCode code: ServerErrorCode, reason: String, retryAfter: Int?, ckErrorCode: Int?, serverRecord: Record?,
        userDidResetEncryptedData: Bool? = nil
    ) {
        let native = CKError.Code(serverErrorCode: code, ckErrorCode: ckErrorCode)
        self.init(
            native, reason, retryAfter: retryAfter.map(Double.init), serverErrorCode: code,
            serverRecord: serverRecord
        )
        self.userDidResetEncryptedData = userDidResetEncryptedData ?? false
    }

    /// A request that failed in the shared transport.
    init(_ failure: TransportFailure) {
        switch failure.kind {
        case .server(let body):
            self.init(
                serverErrorCode: body.serverErrorCode, reason: body.reason, retryAfter: body.retryAfter, ckErrorCode: body.ckErrorCode,
                serverRecord: nil, userDidResetEncryptedData: body.userDidResetEncryptedData
            )
        default:
            self.init(CKError.Code(failure.kind), "\(failure.path): \(failure.message)")
        }
    }

    /// A per-zone error.
    public init(_ error: ZoneError) {
        self.init(
            serverErrorCode: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter,
            ckErrorCode: error.ckErrorCode, serverRecord: nil, userDidResetEncryptedData: error.userDidResetEncryptedData
        )
    }

    /// A per-item record error.
    public init(_ error: RecordError) {
        self.init(
            serverErrorCode: error.serverErrorCode, reason: error.reason, retryAfter: error.retryAfter,
            ckErrorCode: error.ckErrorCode, serverRecord: error.serverRecord,
            userDidResetEncryptedData: error.userDidResetEncryptedData
        )
    }
}
