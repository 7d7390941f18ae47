import CloudKit
import Testing

/// The modern result blocks report what the operation as a whole did: items that failed come
/// through the per-item blocks, and the result succeeds — only the legacy completion blocks get
/// a `partialFailure`. A legacy per-item block is not called when its modern one is set.
@Suite struct OperationResultBlockTests {
    /// Runs a modify of `first` (made stale) and a new record; answers each record's outcome
    /// (its error code, or "saved"), the result block's, and the legacy completion block's error code.
    @available(*, deprecated, message: "exercises modifyRecordsCompletionBlock")
    static func modify(
        atomically: Bool, on db: CKDatabase, zoneID: CKRecordZone.ID
    ) async throws -> (records: [String: String], result: CKError.Code?, legacy: CKError.Code?) {
        let first = try await db.save(CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "stale-\(atomically)", zoneID: zoneID)))
        let newer = first.copy() as! CKRecord
        newer["name"] = "newer"
        _ = try await db.save(newer)
        first["name"] = "older"
        let fresh = CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "fresh-\(atomically)", zoneID: zoneID))
        let operation = CKModifyRecordsOperation(recordsToSave: [first, fresh], recordIDsToDelete: nil)
        operation.isAtomic = atomically
        let records = Locked<[String: String]>([:])
        let outcome = Locked<(result: CKError.Code?, legacy: CKError.Code?)>((nil, nil))
        operation.perRecordSaveBlock = { id, result in
            records.update { $0[id.recordName] = result.outcome }
        }
        operation.modifyRecordsResultBlock = { result in outcome.update { $0.result = result.failureCode } }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            operation.modifyRecordsCompletionBlock = { _, _, error in
                outcome.update { $0.legacy = (error as? CKError)?.code }
                done.resume()
            }
            db.add(operation)
        }
        return (records.value, outcome.value.result, outcome.value.legacy)
    }

    @available(*, deprecated, message: "exercises modifyRecordsCompletionBlock")
    @Test func aModifyWithAFailedRecordSucceedsAndReportsTheRecord() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Results")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))

            let separate = try await Self.modify(atomically: false, on: db, zoneID: zoneID)
            #expect(separate.records == ["stale-false": "serverRecordChanged", "fresh-false": "saved"])
            #expect(separate.result == nil && separate.legacy == .partialFailure)

            // Atomic (the default, in a custom zone): the other record fails with it, as Apple documents.
            let atomic = try await Self.modify(atomically: true, on: db, zoneID: zoneID)
            #expect(atomic.records == ["stale-true": "serverRecordChanged", "fresh-true": "batchRequestFailed"])
            #expect(atomic.result == nil && atomic.legacy == .partialFailure)
        }
    }

    @available(*, deprecated, message: "exercises perRecordCompletionBlock")
    @Test func aFetchWithAMissingRecordSucceedsAndTheLegacyBlockStaysQuiet() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let here = try await db.save(CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "here")))
            let missing = CKRecord.ID(recordName: "missing")
            let operation = CKFetchRecordsOperation(recordIDs: [here.recordID, missing])
            let codes = Locked<[String: String]>([:])
            let legacyCalls = Locked(0)
            let result = Locked<CKError.Code?>(nil)
            operation.perRecordResultBlock = { id, outcome in codes.update { $0[id.recordName] = outcome.outcome } }
            operation.perRecordCompletionBlock = { _, _, _ in legacyCalls.update { $0 += 1 } }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.fetchRecordsResultBlock = { outcome in
                    result.update { $0 = outcome.failureCode }
                    done.resume()
                }
                db.add(operation)
            }
            #expect(codes.value == ["here": "saved", "missing": "unknownItem"])
            #expect(result.value == nil && legacyCalls.value == 0)
        }
    }

    @Test func aZoneChangesFetchWithAMissingZoneSucceedsAndReportsTheZone() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let real = CKRecordZone.ID(zoneName: "Real")
            let gone = CKRecordZone.ID(zoneName: "Gone")
            _ = try await db.save(CKRecordZone(zoneID: real))
            let operation = CKFetchRecordZoneChangesOperation(recordZoneIDs: [real, gone])
            let zones = Locked<[String: String]>([:])
            let result = Locked<CKError.Code?>(.internalError)
            operation.recordZoneFetchResultBlock = { zoneID, outcome in zones.update { $0[zoneID.zoneName] = outcome.outcome } }
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                operation.fetchRecordZoneChangesResultBlock = { outcome in
                    result.update { $0 = outcome.failureCode }
                    done.resume()
                }
                db.add(operation)
            }
            #expect(zones.value == ["Real": "saved", "Gone": "zoneNotFound"])
            #expect(result.value == nil)
        }
    }
}

extension Result {
    /// The CloudKit code of a failure; `nil` for a success.
    var failureCode: CKError.Code? {
        guard case .failure(let error) = self else { return nil }
        return (error as? CKError)?.code ?? .internalError
    }

    /// "saved" for a success, else the failure's code's name.
    var outcome: String { failureCode.map { "\($0)" } ?? "saved" }
}
