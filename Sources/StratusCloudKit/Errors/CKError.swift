import Foundation

/// The error domain of ``CKError`` (`CKErrorDomain`).
public let CKErrorDomain = "CKErrorDomain"
/// `userInfo` key of a `partialFailure`'s per-item errors.
public let CKPartialErrorsByItemIDKey = "CKPartialErrors"
/// `userInfo` key of the record the server holds (`serverRecordChanged`).
public let CKRecordChangedErrorServerRecordKey = "ServerRecord"
/// `userInfo` key of the record the client tried to save (`serverRecordChanged`).
public let CKRecordChangedErrorClientRecordKey = "ClientRecord"
/// `userInfo` key of the record the client's save started from (`serverRecordChanged`).
public let CKRecordChangedErrorAncestorRecordKey = "AncestorRecord"
/// `userInfo` key of the seconds to wait before retrying.
public let CKErrorRetryAfterKey = "CKRetryAfter"
/// `userInfo` key set on a `zoneNotFound` whose zone went in an encrypted-data reset.
public let CKErrorUserDidResetEncryptedDataKey = "CKUserDidResetEncryptedData"

/// An error from CloudKit, as Apple's framework reports it: ``code`` is `CKError.Code` with
/// Apple's raw values, and the `userInfo` accessors read what the server sent — the server's
/// record of a conflict, the per-item errors of a partial failure, when to retry.
// `@unchecked Sendable` as NSError is: `errorUserInfo` holds property-list values and CloudKit's own
// `Sendable` objects (records, errors), and is never changed after the error is made.
public struct CKError: Error, CustomNSError, Hashable, @unchecked Sendable, CustomStringConvertible {
    /// `CKError.Code`, with Apple's raw values.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        case internalError = 1
        case partialFailure = 2
        case networkUnavailable = 3
        case networkFailure = 4
        case badContainer = 5
        case serviceUnavailable = 6
        case requestRateLimited = 7
        case missingEntitlement = 8
        case notAuthenticated = 9
        case permissionFailure = 10
        case unknownItem = 11
        case invalidArguments = 12
        case resultsTruncated = 13
        case serverRecordChanged = 14
        case serverRejectedRequest = 15
        case assetFileNotFound = 16
        case assetFileModified = 17
        case incompatibleVersion = 18
        case constraintViolation = 19
        case operationCancelled = 20
        case changeTokenExpired = 21
        case batchRequestFailed = 22
        case zoneBusy = 23
        case badDatabase = 24
        case quotaExceeded = 25
        case zoneNotFound = 26
        case limitExceeded = 27
        case userDeletedZone = 28
        case tooManyParticipants = 29
        case alreadyShared = 30
        case referenceViolation = 31
        case managedAccountRestricted = 32
        case participantMayNeedVerification = 33
        case serverResponseLost = 34
        case assetNotAvailable = 35
        case accountTemporarilyUnavailable = 36
        /// The user already has an invitation to the share, waiting to be accepted (iOS 26 SDK).
        case participantAlreadyInvited = 37
    }

    public let code: Code
    /// What went wrong, as the server or the framework said it, and the values Apple's keys name.
    public let errorUserInfo: [String: Any]

    public init(_ code: Code, userInfo: [String: Any] = [:]) {
        self.code = code
        self.errorUserInfo = userInfo
    }

    public static var errorDomain: String { CKErrorDomain }
    public var errorCode: Int { code.rawValue }
    public var userInfo: [String: Any] { errorUserInfo }
    /// What went wrong: the description the server or the framework gave, else what Apple's
    /// Foundation says of an error without one — "The operation couldn’t be completed.
    /// (CKErrorDomain error 36.)" (Linux's Foundation words it differently: this does not ask it).
    public var localizedDescription: String {
        errorUserInfo[NSLocalizedDescriptionKey] as? String
            ?? "The operation couldn\u{2019}t be completed. (\(CKErrorDomain) error \(code.rawValue).)"
    }
    public var description: String { "CKError(\(code)): \(localizedDescription)" }

    /// The server's record of a `serverRecordChanged`.
    public var serverRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorServerRecordKey] as? CKRecord }
    /// The record the client tried to save, with a `serverRecordChanged`.
    public var clientRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorClientRecordKey] as? CKRecord }
    /// The record the client's save started from, with a `serverRecordChanged`.
    public var ancestorRecord: CKRecord? { errorUserInfo[CKRecordChangedErrorAncestorRecordKey] as? CKRecord }
    /// Seconds to wait before retrying, when the server said.
    public var retryAfterSeconds: Double? { errorUserInfo[CKErrorRetryAfterKey] as? Double }
    /// The per-item errors of a `partialFailure`, by record ID, zone ID or subscription ID.
    public var partialErrorsByItemID: [AnyHashable: any Error]? { errorUserInfo[CKPartialErrorsByItemIDKey] as? [AnyHashable: any Error] }

    public static func == (lhs: CKError, rhs: CKError) -> Bool {
        lhs.code == rhs.code && lhs.localizedDescription == rhs.localizedDescription
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(localizedDescription)
    }
}

extension CKError.Code {
    /// `catch CKError.serverRecordChanged { … }`, as with Apple's bridged error.
    public static func ~= (code: CKError.Code, error: any Error) -> Bool {
        (error as? CKError)?.code == code
    }
}

extension CKError {
    // `CKError.unknownItem` and the like, as Apple's bridged error spells codes.
    public static var internalError: Code { .internalError }
    public static var partialFailure: Code { .partialFailure }
    public static var networkUnavailable: Code { .networkUnavailable }
    public static var networkFailure: Code { .networkFailure }
    public static var badContainer: Code { .badContainer }
    public static var serviceUnavailable: Code { .serviceUnavailable }
    public static var requestRateLimited: Code { .requestRateLimited }
    public static var missingEntitlement: Code { .missingEntitlement }
    public static var notAuthenticated: Code { .notAuthenticated }
    public static var permissionFailure: Code { .permissionFailure }
    public static var unknownItem: Code { .unknownItem }
    public static var invalidArguments: Code { .invalidArguments }
    public static var resultsTruncated: Code { .resultsTruncated }
    public static var serverRecordChanged: Code { .serverRecordChanged }
    public static var serverRejectedRequest: Code { .serverRejectedRequest }
    public static var assetFileNotFound: Code { .assetFileNotFound }
    public static var assetFileModified: Code { .assetFileModified }
    public static var incompatibleVersion: Code { .incompatibleVersion }
    public static var constraintViolation: Code { .constraintViolation }
    public static var operationCancelled: Code { .operationCancelled }
    public static var changeTokenExpired: Code { .changeTokenExpired }
    public static var batchRequestFailed: Code { .batchRequestFailed }
    public static var zoneBusy: Code { .zoneBusy }
    public static var badDatabase: Code { .badDatabase }
    public static var quotaExceeded: Code { .quotaExceeded }
    public static var zoneNotFound: Code { .zoneNotFound }
    public static var limitExceeded: Code { .limitExceeded }
    public static var userDeletedZone: Code { .userDeletedZone }
    public static var tooManyParticipants: Code { .tooManyParticipants }
    public static var alreadyShared: Code { .alreadyShared }
    public static var referenceViolation: Code { .referenceViolation }
    public static var managedAccountRestricted: Code { .managedAccountRestricted }
    public static var participantMayNeedVerification: Code { .participantMayNeedVerification }
    public static var serverResponseLost: Code { .serverResponseLost }
    public static var assetNotAvailable: Code { .assetNotAvailable }
    public static var accountTemporarilyUnavailable: Code { .accountTemporarilyUnavailable }
    public static var participantAlreadyInvited: Code { .participantAlreadyInvited }
}
