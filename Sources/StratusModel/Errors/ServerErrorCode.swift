/// A CloudKit Web Services `serverErrorCode`.
///
/// A struct over a string, not an enum, so a client decodes codes it does not know yet
/// (the same shape as GRDB's `ResultCode` and PostgresNIO's `PSQLError.Code`).
public struct ServerErrorCode: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    /// Every code CloudKit Web Services documents, the only ones a fault rule may answer with.
    public static let documented: [ServerErrorCode] = [
        .accessDenied, .atomicError, .authenticationFailed, .authenticationRequired, .badRequest, .conflict, .exists,
        .internalError, .notFound, .quotaExceeded, .throttled, .tryAgainLater, .validatingReferenceError, .zoneNotFound,
    ]

    /// Whether CloudKit Web Services documents this code.
    public var isDocumented: Bool { Self.documented.contains(self) }

    /// 403: no permission for the endpoint, record, zone or database.
    public static let accessDenied = ServerErrorCode("ACCESS_DENIED")
    /// 400: an atomic batch operation failed (the items that did not fail themselves).
    public static let atomicError = ServerErrorCode("ATOMIC_ERROR")
    /// 401: a credential was given but rejected.
    public static let authenticationFailed = ServerErrorCode("AUTHENTICATION_FAILED")
    /// 421: the request needs a signed-in user; carries `redirectURL`.
    public static let authenticationRequired = ServerErrorCode("AUTHENTICATION_REQUIRED")
    /// 400: the request is not valid. Also used, with a reason saying so, for an expired change token.
    public static let badRequest = ServerErrorCode("BAD_REQUEST")
    /// 409: the `recordChangeTag` is stale.
    public static let conflict = ServerErrorCode("CONFLICT")
    /// 409: the resource being created already exists.
    public static let exists = ServerErrorCode("EXISTS")
    /// 500: internal error.
    public static let internalError = ServerErrorCode("INTERNAL_ERROR")
    /// 404: not found.
    public static let notFound = ServerErrorCode("NOT_FOUND")
    /// 413: quota exceeded.
    public static let quotaExceeded = ServerErrorCode("QUOTA_EXCEEDED")
    /// 429: throttled; retry after `retryAfter` seconds.
    public static let throttled = ServerErrorCode("THROTTLED")
    /// 503: transient failure; retry.
    public static let tryAgainLater = ServerErrorCode("TRY_AGAIN_LATER")
    /// 412: a validating reference constraint was violated.
    public static let validatingReferenceError = ServerErrorCode("VALIDATING_REFERENCE_ERROR")
    /// 404: the zone in the request does not exist.
    public static let zoneNotFound = ServerErrorCode("ZONE_NOT_FOUND")

    /// The HTTP status CloudKit Web Services answers with for this code when it fails a whole request.
    public var httpStatus: Int {
        switch self {
        case .accessDenied: 403
        case .atomicError, .badRequest: 400
        case .authenticationFailed: 401
        case .authenticationRequired: 421
        case .conflict, .exists: 409
        case .notFound, .zoneNotFound: 404
        case .quotaExceeded: 413
        case .throttled: 429
        case .tryAgainLater: 503
        case .validatingReferenceError: 412
        default: 500
        }
    }
}

/// The native `CKError.Code` numbers Stratus adds (as `nativeErrorCode`) where the web code alone is ambiguous.
public enum CKErrorCodeNumber {
    /// `CKError.Code.badContainer`: the server has no container of that identifier (sent with
    /// `BAD_REQUEST`: CloudKit Web Services documents no code for it).
    public static let badContainer = 5
    /// `CKError.Code.changeTokenExpired`: refetch from no token.
    public static let changeTokenExpired = 21
    /// `CKError.Code.limitExceeded`: the request (or record) is too large; split it and retry.
    public static let limitExceeded = 27
    /// `CKError.Code.userDeletedZone`: the user deleted the app's data from Settings (the zone
    /// was purged); sent with `ZONE_NOT_FOUND`.
    public static let userDeletedZone = 28
    /// `CKError.Code.alreadyShared`: the save would put a record, or a zone and its records, in a
    /// second share (a per-item `BAD_REQUEST`: CloudKit Web Services documents no code for it).
    public static let alreadyShared = 30
}
