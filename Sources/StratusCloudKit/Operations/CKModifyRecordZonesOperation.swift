import Foundation

/// Saves and deletes record zones in one request (``CKDatabase/modifyRecordZones(saving:deleting:)``),
/// reporting each zone, then the whole: a failure of any item makes the legacy completion
/// block's error a `partialFailure` whose `partialErrorsByItemID` holds each failed zone's error by its zone ID.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKModifyRecordZonesOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The zones to create (saving a zone that exists succeeds).
    open var recordZonesToSave: [CKRecordZone]?
    /// The zones to delete, with every record in them.
    open var recordZoneIDsToDelete: [CKRecordZone.ID]?

    /// Called once for each zone to save: the saved zone, or why it was not saved.
    open var perRecordZoneSaveBlock: ((CKRecordZone.ID, Result<CKRecordZone, any Error>) -> Void)?
    /// Called once for each zone to delete: success, or why it was not deleted.
    open var perRecordZoneDeleteBlock: ((CKRecordZone.ID, Result<Void, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var modifyRecordZonesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called last with the saved zones, the deleted zone IDs and the operation's error.
    @available(*, deprecated, message: "Use modifyRecordZonesResultBlock")
    open var modifyRecordZonesCompletionBlock: (([CKRecordZone]?, [CKRecordZone.ID]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: (([CKRecordZone]?, [CKRecordZone.ID]?, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation saving and deleting these zones.
    public convenience init(recordZonesToSave: [CKRecordZone]? = nil, recordZoneIDsToDelete: [CKRecordZone.ID]? = nil) {
        self.init()
        self.recordZonesToSave = recordZonesToSave
        self.recordZoneIDsToDelete = recordZoneIDsToDelete
    }

    override func execute() async {
        let saves = recordZonesToSave ?? []
        let deletes = recordZoneIDsToDelete ?? []
        do {
            try checkCancelled()
            let database = try requireDatabase()
            var saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
            var deleteResults: [CKRecordZone.ID: Result<Void, any Error>] = [:]
            if !saves.isEmpty || !deletes.isEmpty {
                let answer = try await database.modifyRecordZones(saving: saves, deleting: deletes)
                saveResults = answer.saveResults
                deleteResults = answer.deleteResults
            }
            var failures: [AnyHashable: any Error] = [:]
            var saved: [CKRecordZone] = []
            for zone in saves {
                let result = saveResults[zone.zoneID] ?? .failure(CKError(.internalError, "no answer for zone \(zone.zoneID.zoneName)"))
                perRecordZoneSaveBlock?(zone.zoneID, result)
                switch result {
                case .success(let savedZone): saved.append(savedZone)
                case .failure(let error): failures[zone.zoneID] = error
                }
            }
            var deleted: [CKRecordZone.ID] = []
            for id in deletes {
                let result = deleteResults[id] ?? .failure(CKError(.internalError, "no answer for zone \(id.zoneName)"))
                perRecordZoneDeleteBlock?(id, result)
                switch result {
                case .success: deleted.append(id)
                case .failure(let error): failures[id] = error
                }
            }
            complete(saved: saved, deleted: deleted, error: CKError.partialFailure(failures, of: saves.count + deletes.count))
        } catch {
            complete(saved: nil, deleted: nil, error: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(saved: nil, deleted: nil, error: error)
    }

    private func complete(saved: [CKRecordZone]?, deleted: [CKRecordZone.ID]?, error: CKError?) {
        modifyRecordZonesResultBlock?(Self.modernResult(error))
        legacyCompletion?(saved, deleted, error)
    }
}
