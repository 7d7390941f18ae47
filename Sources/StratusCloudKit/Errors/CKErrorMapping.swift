import Foundation
import StratusModel

extension CKError.Code {
    /// The CKError a CloudKit Web Services error stands for — the house's one mapping (StratusKit
    /// uses it too). `nativeErrorCode`, which Stratus sends where the web code is ambiguous (token
    /// expired, limit exceeded, the user deleted the zone, already shared), decides first.
    package init(serverErrorCode code: ServerErrorCode, nativeErrorCode: Int?) {
        if let native = nativeErrorCode.flatMap(CKError.Code.init(rawValue:)) {
            self = native
            return
        }
        self =
            switch code {
            case .conflict, .exists: .serverRecordChanged
            case .accessDenied: .permissionFailure
            case .notFound: .unknownItem
            case .zoneNotFound: .zoneNotFound
            case .atomicError: .batchRequestFailed
            case .throttled: .requestRateLimited
            case .tryAgainLater: .serviceUnavailable
            case .authenticationFailed, .authenticationRequired: .notAuthenticated
            case .quotaExceeded: .quotaExceeded
            case .validatingReferenceError: .referenceViolation
            case .badRequest: .invalidArguments
            default: .internalError
            }
    }

    /// Whether retrying the same request later may succeed — what CKSyncEngine retries itself:
    /// the network, an unavailable service, rate limits, a busy zone. The house's one list
    /// (`SyncRetry`, the house's one retry, asks it).
    package var isTransient: Bool {
        switch self {
        case .networkFailure, .networkUnavailable, .serviceUnavailable, .requestRateLimited, .zoneBusy, .serverResponseLost: true
        default: false
        }
    }

    /// The code of a transport failure that carries no CloudKit error body.
    package init(_ kind: TransportFailure.Kind) {
        self =
            switch kind {
            case .server(let body): CKError.Code(serverErrorCode: body.serverErrorCode, nativeErrorCode: body.nativeErrorCode)
            case .status(429): .requestRateLimited
            case .status(503): .serviceUnavailable
            case .cancelled: .operationCancelled
            case .status: .serverRejectedRequest
            case .network: .networkFailure
            case .undecodable: .serverRejectedRequest
            case .unencodable: .invalidArguments
            }
    }
}

extension CKError {
    /// A request-level failure in CloudKit's terms.
    init(_ failure: TransportFailure) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: "\(failure.path): \(failure.message)"]
        if case .server(let body) = failure.kind {
            if let retryAfter = body.retryAfter { info[CKErrorRetryAfterKey] = Double(retryAfter) }
            if body.userDidResetEncryptedData == true { info[CKErrorUserDidResetEncryptedDataKey] = true }
            info["ServerErrorCode"] = body.serverErrorCode.rawValue
        }
        self.init(CKError.Code(failure.kind), userInfo: info)
    }

    /// A per-record failure; `client` is the record the caller sent (for `serverRecordChanged`).
    package init(_ error: RecordError, client: CKRecord?, zoneID: CKRecordZone.ID) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: error.reason]
        let code = CKError.Code(serverErrorCode: error.serverErrorCode, nativeErrorCode: error.nativeErrorCode)
        if let retryAfter = error.retryAfter { info[CKErrorRetryAfterKey] = Double(retryAfter) }
        if error.userDidResetEncryptedData == true { info[CKErrorUserDidResetEncryptedDataKey] = true }
        if code == .serverRecordChanged {
            if let server = error.serverRecord { info[CKRecordChangedErrorServerRecordKey] = CKRecord.from(wire: server, zoneID: zoneID) }
            if let client {
                info[CKRecordChangedErrorClientRecordKey] = client
                if let ancestor = client.ancestor { info[CKRecordChangedErrorAncestorRecordKey] = ancestor }
            }
        }
        info["ServerErrorCode"] = error.serverErrorCode.rawValue
        self.init(code, userInfo: info)
    }

    /// A per-zone failure.
    init(_ error: ZoneError) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: error.reason]
        if let retryAfter = error.retryAfter { info[CKErrorRetryAfterKey] = Double(retryAfter) }
        if error.userDidResetEncryptedData == true { info[CKErrorUserDidResetEncryptedDataKey] = true }
        self.init(CKError.Code(serverErrorCode: error.serverErrorCode, nativeErrorCode: error.nativeErrorCode), userInfo: info)
    }

    /// An error the framework raises itself.
    package init(_ code: Code, _ description: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: description])
    }

    /// The whole error of an operation over `count` items: `nil` when no item failed, else a
    /// `partialFailure` holding the per-item errors.
    static func partialFailure(_ errors: [AnyHashable: any Error], of count: Int) -> CKError? {
        if errors.isEmpty { return nil }
        return CKError(.partialFailure, userInfo: [
            NSLocalizedDescriptionKey: "\(errors.count) of \(count) items failed", CKPartialErrorsByItemIDKey: errors,
        ])
    }
}

extension CKError {
    /// `userInfo` key (Stratus's) marking an item's error as its request's: the request failed as
    /// a whole, so the server answered nothing for the item.
    static let requestFailedKey = "StratusRequestFailed"

    /// The error of an item whose request failed as a whole (a later zone's, in a modify spanning
    /// zones): the request's error, marked so that no one mistakes it for the server's answer.
    static func unanswered(_ error: any Error) -> CKError {
        let failure = wrapping(error)
        var info = failure.errorUserInfo
        info[requestFailedKey] = true
        return CKError(failure.code, userInfo: info)
    }

    /// An error as CloudKit reports it: a ``CKError`` as it is, anything else an `internalError`.
    package static func wrapping(_ error: any Error) -> CKError { error as? CKError ?? CKError(.internalError, "\(error)") }

    /// Whether the server answered nothing for the item this error is about (``unanswered(_:)``).
    var isUnanswered: Bool { errorUserInfo[Self.requestFailedKey] as? Bool == true }
}

extension CKError {
    /// A per-subscription failure.
    init(_ error: SubscriptionError) {
        var info: [String: Any] = [NSLocalizedDescriptionKey: error.reason]
        if let retryAfter = error.retryAfter { info[CKErrorRetryAfterKey] = Double(retryAfter) }
        self.init(CKError.Code(serverErrorCode: error.serverErrorCode, nativeErrorCode: nil), userInfo: info)
    }
}

extension CKError {
    /// A per-share failure of records/resolve or records/accept.
    init(_ error: ShortGUIDError) {
        self.init(CKError.Code(serverErrorCode: error.serverErrorCode, nativeErrorCode: nil), userInfo: [NSLocalizedDescriptionKey: error.reason])
    }
}
