import Foundation

/// Fetches records by ID (``CKDatabase/records(for:desiredKeys:)``), reporting each record,
/// then the whole. A record that fails is reported through `perRecordResultBlock`;
/// `fetchRecordsResultBlock` then succeeds, and only the legacy `fetchRecordsCompletionBlock`
/// gets a `partialFailure` holding each error by its ``CKRecord/ID``.
///
/// A record ID named ``CKCurrentUserDefaultName`` stands for the signed-in user's record
/// (``fetchCurrentUserRecordOperation()``); it is answered under that ID, as the record the
/// user's record ID names.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchRecordsOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The records to fetch.
    open var recordIDs: [CKRecord.ID]?
    /// The fields to fetch (`nil`: every field).
    open var desiredKeys: [CKRecord.FieldKey]?

    /// Called with each record's download progress (here once, at 1, before its result).
    open var perRecordProgressBlock: ((CKRecord.ID, Double) -> Void)?
    /// Called once for each record ID: the record, or why it could not be fetched.
    open var perRecordResultBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    /// Called last: success (records that failed were reported per record), or the operation's error.
    open var fetchRecordsResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called once for each record ID with the record or its error.
    @available(*, deprecated, message: "Use perRecordResultBlock")
    open var perRecordCompletionBlock: ((CKRecord?, CKRecord.ID?, (any Error)?) -> Void)? {
        get { legacyPerRecord }
        set { legacyPerRecord = newValue }
    }
    /// Called last with the fetched records by ID and the operation's error.
    @available(*, deprecated, message: "Use fetchRecordsResultBlock")
    open var fetchRecordsCompletionBlock: (([CKRecord.ID: CKRecord]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyPerRecord: ((CKRecord?, CKRecord.ID?, (any Error)?) -> Void)?
    private var legacyCompletion: (([CKRecord.ID: CKRecord]?, (any Error)?) -> Void)?

    /// The record type of a user's record (`CKRecord.SystemType.userRecord`).
    private static let userRecordType: CKRecord.RecordType = "Users"

    public required override init() {
        super.init()
    }

    /// An operation fetching the records with these IDs.
    public convenience init(recordIDs: [CKRecord.ID]) {
        self.init()
        self.recordIDs = recordIDs
    }

    /// An operation fetching the signed-in user's record.
    public class func fetchCurrentUserRecordOperation() -> Self {
        let operation = self.init()
        operation.recordIDs = [CKRecord.ID(recordName: CKCurrentUserDefaultName)]
        return operation
    }

    override func execute() async {
        let ids = Self.unique(recordIDs ?? [])
        do {
            try checkCancelled()
            let database = try requireDatabase()
            let results = try await fetch(ids, in: database)
            var failures: [AnyHashable: any Error] = [:]
            var fetched: [CKRecord.ID: CKRecord] = [:]
            // The legacy per-record block only when the modern one is not set, as Apple's.
            let legacyPerRecord = perRecordResultBlock == nil ? legacyPerRecord : nil
            for id in ids {
                let result = results[id] ?? .failure(CKError(.internalError, "no answer for \(id.recordName)"))
                perRecordProgressBlock?(id, 1)
                perRecordResultBlock?(id, result)
                switch result {
                case .success(let record):
                    fetched[id] = record
                    legacyPerRecord?(record, id, nil)
                case .failure(let error):
                    failures[id] = error
                    legacyPerRecord?(nil, id, error)
                }
            }
            complete(fetched: fetched, error: CKError.partialFailure(failures, of: ids.count))
        } catch {
            complete(fetched: nil, error: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(fetched: nil, error: error)
    }

    private func complete(fetched: [CKRecord.ID: CKRecord]?, error: CKError?) {
        fetchRecordsResultBlock?(Self.modernResult(error))
        legacyCompletion?(fetched, error)
    }

    /// Each record or its error: ordinary IDs in one lookup per zone, the current user's after
    /// asking the container who that is.
    private func fetch(_ ids: [CKRecord.ID], in database: CKDatabase) async throws -> [CKRecord.ID: Result<CKRecord, any Error>] {
        let current = ids.filter { $0.recordName == CKCurrentUserDefaultName }
        let others = ids.filter { $0.recordName != CKCurrentUserDefaultName }
        var results: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        if !others.isEmpty { results = try await database.records(for: others, desiredKeys: desiredKeys) }
        guard !current.isEmpty else { return results }
        try checkCancelled()
        let userRecord = try await currentUserRecord(in: database)
        for id in current { results[id] = userRecord }
        return results
    }

    /// The signed-in user's record: the record their user record ID names, or — where the
    /// server keeps none — an empty `Users` record with that ID (saving it creates it).
    private func currentUserRecord(in database: CKDatabase) async throws -> Result<CKRecord, any Error> {
        let userRecordID = try await database.container.userRecordID()
        try checkCancelled()
        let found = try await database.records(for: [userRecordID], desiredKeys: desiredKeys)[userRecordID]
        switch found {
        case .success(let record)?:
            return .success(record)
        case .failure(let error)? where (error as? CKError)?.code == .unknownItem:
            return .success(CKRecord(recordType: Self.userRecordType, recordID: userRecordID))
        case .failure(let error)?:
            return .failure(error)
        case nil:
            return .success(CKRecord(recordType: Self.userRecordType, recordID: userRecordID))
        }
    }
}
