import Foundation
import StratusModel
import StratusStore

/// The per-item answers of records/modify and records/lookup: a store outcome as a record or
/// the error CloudKit puts in its place.
enum RecordErrors {
    static func result(
        of outcome: WriteOutcome, name: String, desiredKeys: [String]?, mapper: RecordMapper, shares: ShareRenderer?
    ) -> RecordResult {
        var mapper = mapper
        mapper.shares = shares
        switch outcome {
        case .saved(let record): return .success(mapper.record(record, desiredKeys: desiredKeys))
        case .deleted(let name): return .success(mapper.deleted(name))
        case .failed(let failure):
            let error: RecordError
            switch failure {
            case .exists(let server):
                error = RecordError(
                    recordName: name, serverErrorCode: .exists, reason: "record to insert already exists",
                    uuid: ErrorUUID.make(), serverRecord: mapper.record(server, desiredKeys: nil)
                )
            case .conflict(let server):
                error = RecordError(
                    recordName: name, serverErrorCode: .conflict,
                    reason: "record changed on the server: recordChangeTag is \(server.changeTag)",
                    uuid: ErrorUUID.make(), serverRecord: mapper.record(server, desiredKeys: nil)
                )
            case .notFound:
                return notFound(name)
            case .permissionDenied:
                // The public database's security roles: by default (WRITE to "_creator") only its creator.
                error = RecordError(
                    recordName: name, serverErrorCode: .accessDenied,
                    reason: "permission denied: only the record's creator, or a role its type grants WRITE to, may change it in the public database",
                    uuid: ErrorUUID.make()
                )
            case .createDenied:
                error = RecordError(
                    recordName: name, serverErrorCode: .accessDenied,
                    reason: "permission denied: the schema's security roles grant CREATE on this record type to no role this user holds",
                    uuid: ErrorUUID.make()
                )
            case .invalid(let reason):
                error = RecordError(recordName: name, serverErrorCode: .badRequest, reason: reason, uuid: ErrorUUID.make())
            case .atomicAborted:
                error = atomic(name)
            case .missingParent(let parent):
                error = RecordError(
                    recordName: name, serverErrorCode: .validatingReferenceError,
                    reason: "the parent of record '\(name)', record '\(parent)', does not exist in the zone", uuid: ErrorUUID.make()
                )
            case .quotaExceeded(let quota):
                error = RecordError(
                    recordName: name, serverErrorCode: .quotaExceeded,
                    reason: "saving record '\(name)' would exceed the owner's storage quota of \(quota) bytes", uuid: ErrorUUID.make()
                )
            case .assetRefused(let reason):
                error = RecordError(recordName: name, serverErrorCode: .badRequest, reason: reason, uuid: ErrorUUID.make())
            case .alreadyShared(let reason):
                // CloudKit Web Services documents no code for CKError.alreadyShared: BAD_REQUEST, with the native code.
                error = RecordError(
                    recordName: name, serverErrorCode: .badRequest, reason: reason, uuid: ErrorUUID.make(),
                    nativeErrorCode: CKErrorCodeNumber.alreadyShared
                )
            case .missingReference(let target):
                error = RecordError(
                    recordName: name, serverErrorCode: .validatingReferenceError,
                    reason: "a reference of record '\(name)' requires record '\(target)', which does not exist in the zone",
                    uuid: ErrorUUID.make()
                )
            }
            return .failure(error)
        }
    }

    static func atomic(_ name: String) -> RecordError {
        RecordError(
            recordName: name, serverErrorCode: .atomicError,
            reason: "atomic batch failed: another operation in this zone failed, nothing was saved", uuid: ErrorUUID.make()
        )
    }

    static func notFound(_ name: String) -> RecordResult {
        .failure(RecordError(recordName: name, serverErrorCode: .notFound, reason: "Record not found", uuid: ErrorUUID.make()))
    }
}
