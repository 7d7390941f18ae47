import Foundation

/// Saves and deletes records (``CKDatabase/modifyRecords(saving:deleting:savePolicy:atomically:)``),
/// reporting each record, then the whole. A record that fails is reported through
/// `perRecordSaveBlock`/`perRecordDeleteBlock`; `modifyRecordsResultBlock` then succeeds, and
/// only the legacy `modifyRecordsCompletionBlock` gets a `partialFailure` holding each error.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKModifyRecordsOperation: CKDatabaseOperation, @unchecked Sendable {
    /// Which fields a save sends, and whether it checks the server's record is unchanged.
    public enum RecordSavePolicy: Int, Sendable, Hashable {
        /// Changed fields, only if the server's record is the one the record was fetched as.
        case ifServerRecordUnchanged = 0
        /// Changed fields, whatever the server has.
        case changedKeys = 1
        /// Every field, replacing the server's record.
        case allKeys = 2
    }

    open var recordsToSave: [CKRecord]?
    open var recordIDsToDelete: [CKRecord.ID]?
    open var savePolicy: RecordSavePolicy = .ifServerRecordUnchanged
    open var isAtomic = true
    /// A token of the app's own, for the zones this operation changes: once it saved or deleted
    /// something in a zone, fetching that zone's changes hands the token back
    /// (``CKFetchRecordZoneChangesOperation``'s `clientChangeTokenData`), telling the app the
    /// server received this modify. The server keeps it, for this device, so it comes back after
    /// a relaunch too.
    open var clientChangeTokenData: Data?

    open var perRecordProgressBlock: ((CKRecord, Double) -> Void)?
    open var perRecordSaveBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    open var perRecordDeleteBlock: ((CKRecord.ID, Result<Void, any Error>) -> Void)?
    open var modifyRecordsResultBlock: ((Result<Void, any Error>) -> Void)?
    @available(*, deprecated, message: "Use perRecordSaveBlock")
    open var perRecordCompletionBlock: ((CKRecord, (any Error)?) -> Void)? {
        get { legacyPerRecord }
        set { legacyPerRecord = newValue }
    }
    @available(*, deprecated, message: "Use modifyRecordsResultBlock")
    open var modifyRecordsCompletionBlock: (([CKRecord]?, [CKRecord.ID]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyPerRecord: ((CKRecord, (any Error)?) -> Void)?
    private var legacyCompletion: (([CKRecord]?, [CKRecord.ID]?, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    public convenience init(recordsToSave: [CKRecord]? = nil, recordIDsToDelete: [CKRecord.ID]? = nil) {
        self.init()
        self.recordsToSave = recordsToSave
        self.recordIDsToDelete = recordIDsToDelete
    }

    override func execute() async {
        let saves = recordsToSave ?? []
        let deletes = recordIDsToDelete ?? []
        do {
            let database = try requireDatabase()
            let (saveResults, deleteResults) = try await database.modifyRecords(
                saving: saves, deleting: deletes, savePolicy: savePolicy, atomically: isAtomic, clientChangeTokenData: clientChangeTokenData
            )
            var failures: [AnyHashable: any Error] = [:]
            var saved: [CKRecord] = []
            // The legacy per-record block only when the modern one is not set, as Apple's.
            let legacyPerRecord = perRecordSaveBlock == nil ? legacyPerRecord : nil
            for record in saves {
                let result = saveResults[record.recordID] ?? .failure(CKError(.internalError, "no answer for \(record.recordID.recordName)"))
                perRecordProgressBlock?(record, 1)
                perRecordSaveBlock?(record.recordID, result)
                switch result {
                case .success(let savedRecord):
                    saved.append(savedRecord)
                    legacyPerRecord?(savedRecord, nil)
                case .failure(let error):
                    failures[record.recordID] = error
                    legacyPerRecord?(record, error)
                }
            }
            var deleted: [CKRecord.ID] = []
            for id in deletes {
                let result = deleteResults[id] ?? .failure(CKError(.internalError, "no answer for \(id.recordName)"))
                perRecordDeleteBlock?(id, result)
                switch result {
                case .success: deleted.append(id)
                case .failure(let error): failures[id] = error
                }
            }
            let error = CKError.partialFailure(failures, of: saves.count + deletes.count)
            complete(saved: saved, deleted: deleted, error: error)
        } catch {
            complete(saved: nil, deleted: nil, error: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(saved: nil, deleted: nil, error: error)
    }

    private func complete(saved: [CKRecord]?, deleted: [CKRecord.ID]?, error: CKError?) {
        modifyRecordsResultBlock?(Self.modernResult(error))
        legacyCompletion?(saved, deleted, error)
    }
}
