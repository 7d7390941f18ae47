import StratusModel
import StratusStore

/// A request-level failure in CloudKit's terms: the server answers it with the code's HTTP
/// status and an ``ErrorBody``. Per-item failures are values inside a 200 instead.
public struct CoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: ServerErrorCode
    public var reason: String
    public var retryAfter: Int?
    public var redirectURL: String?
    /// The native CKError code, where the web code is ambiguous (see ``CKErrorCodeNumber``).
    public var nativeErrorCode: Int?
    /// `true` on a `ZONE_NOT_FOUND` whose zone went in an encrypted-data reset
    /// (`CKErrorUserDidResetEncryptedDataKey` natively).
    public var userDidResetEncryptedData: Bool?
    /// Why an internal error happened (the store's or a library's own words): logged with the
    /// request's ID, never sent to the client.
    public var cause: String?

    public init(
        _ code: ServerErrorCode, _ reason: String, retryAfter: Int? = nil, redirectURL: String? = nil, nativeErrorCode: Int? = nil,
        userDidResetEncryptedData: Bool? = nil
    ) {
        self.code = code
        self.reason = reason
        self.retryAfter = retryAfter
        self.redirectURL = redirectURL
        self.nativeErrorCode = nativeErrorCode
        self.userDidResetEncryptedData = userDidResetEncryptedData
    }

    public var description: String { "\(code): \(reason)" }

    /// The client's "Internal error", keeping `cause` for the log.
    public static func `internal`(cause: any Error) -> CoreError {
        var error = CoreError(.internalError, "Internal error")
        error.cause = String(reflecting: cause)
        return error
    }

    public static func badRequest(_ reason: String) -> CoreError { CoreError(.badRequest, reason) }

    /// The error for a change token older than the zone's history (CKError.changeTokenExpired):
    /// CKWS has no web code for it, so `BAD_REQUEST` whose reason starts with CloudKit JS's name
    /// for the condition — what a web app, which reads no native code, can match.
    public static let changeTokenExpired = CoreError(
        .badRequest,
        "CHANGE_TOKEN_EXPIRED: change token expired: client knowledge differs from server knowledge. Fetch again without a syncToken.",
        nativeErrorCode: CKErrorCodeNumber.changeTokenExpired
    )

    /// A request for a container the server does not have (CKError.badContainer): a
    /// `BAD_REQUEST`, as CKWS documents no code for it, that says so.
    public static func unknownContainer(_ container: String) -> CoreError {
        CoreError(.badRequest, "no container '\(container)' on this server", nativeErrorCode: CKErrorCodeNumber.badContainer)
    }

    /// A request over a size or count limit (CKError.limitExceeded): the client splits it.
    public static func limitExceeded(_ reason: String) -> CoreError {
        CoreError(.badRequest, "limit exceeded: " + reason, nativeErrorCode: CKErrorCodeNumber.limitExceeded)
    }

    /// Change tokens exist for custom zones only (CloudKit's default zone is not a sync zone).
    public static let noChangesInDefaultZone = CoreError(
        .badRequest,
        "_defaultZone keeps no change history: change feeds and tokens exist for custom zones only; read it with records/query or records/lookup"
    )

    /// The error for a zone that does not exist, told apart by why its last incarnation went:
    /// purged (the user deleted the app's data from Settings) carries `nativeErrorCode` 28
    /// (`userDeletedZone`); lost to an encrypted-data reset carries `userDidResetEncryptedData`;
    /// deleted by an app, or never there, is the plain `ZONE_NOT_FOUND`. The web code stays
    /// `ZONE_NOT_FOUND` in every case: CloudKit Web Services documents no other.
    public static func zoneNotFound(after reason: ZoneDeletionReason?) -> CoreError {
        switch reason {
        case .purged?:
            CoreError(
                .zoneNotFound, "Zone not found: the user deleted this zone's data (userDeletedZone); ask before uploading again",
                nativeErrorCode: CKErrorCodeNumber.userDeletedZone
            )
        case .encryptedDataReset?:
            CoreError(
                .zoneNotFound, "Zone not found: the user reset their encrypted data, which deleted this zone",
                userDidResetEncryptedData: true
            )
        case .deleted?, nil:
            CoreError(.zoneNotFound, "Zone not found")
        }
    }

    /// A store call at a request boundary, its failure in CloudKit's terms.
    static func translating<T>(_ body: () async throws(StoreError) -> T) async throws(CoreError) -> T {
        do {
            return try await body()
        } catch {
            throw CoreError(error)
        }
    }

    /// Translates a store failure that reached a request boundary.
    init(_ error: StoreError) {
        switch error.kind {
        case .zoneNotFound: self.init(.zoneNotFound, "Zone not found")
        case .tokenExpired: self = .changeTokenExpired
        case .duplicate: self.init(.exists, "Resource already exists")
        case .busy: self.init(.tryAgainLater, "The server is busy; try again", retryAfter: 1)
        case .invalid: self.init(.badRequest, error.detail)
        case .failure:
            self.init(.internalError, "Internal error")
            cause = error.description
        }
    }
}

extension ZoneError {
    /// A per-zone error carrying a request-level failure's code and reason.
    init(zoneID: ZoneID, _ error: CoreError) {
        self.init(
            zoneID: zoneID, serverErrorCode: error.code, reason: error.reason, nativeErrorCode: error.nativeErrorCode,
            userDidResetEncryptedData: error.userDidResetEncryptedData
        )
    }
}

extension RecordError {
    /// A per-record error carrying a request-level failure's code, reason and markers.
    init(recordName: String, _ error: CoreError) {
        self.init(
            recordName: recordName, serverErrorCode: error.code, reason: error.reason, uuid: ErrorUUID.make(),
            retryAfter: error.retryAfter, nativeErrorCode: error.nativeErrorCode, userDidResetEncryptedData: error.userDidResetEncryptedData
        )
    }
}
