import Foundation

/// Fetches the zones changed and deleted in a database since a change token
/// (``CKDatabase/databaseChanges(since:resultsLimit:)``), page by page: each page's changed
/// zones, then its deleted, purged and reset zones, then — while more is coming and
/// ``fetchAllChanges`` — its change token (``changeTokenUpdatedBlock``); the final token last.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchDatabaseChangesOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The token of the last fetch (`nil`: every zone of the database).
    open var previousServerChangeToken: CKServerChangeToken?
    /// How many changes a page holds at most (`0`: as many as the server gives).
    open var resultsLimit: Int = 0
    /// Whether to keep fetching while the server has more (`false`: one page, the result
    /// saying whether more is coming).
    open var fetchAllChanges = true

    /// Called for each zone with changes (or created) since the token.
    open var recordZoneWithIDChangedBlock: ((CKRecordZone.ID) -> Void)?
    /// Called for each zone deleted since the token.
    open var recordZoneWithIDWasDeletedBlock: ((CKRecordZone.ID) -> Void)?
    /// Called, when set, instead of the deleted block for each zone the user purged (deleted
    /// with its data, from Settings): the app should delete its local copy too.
    open var recordZoneWithIDWasPurgedBlock: ((CKRecordZone.ID) -> Void)?
    /// Called, when set, instead of the deleted block for each zone deleted when the user reset
    /// their encrypted data: the app should upload its local copy again.
    open var recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock: ((CKRecordZone.ID) -> Void)?
    /// Called after each page when more is coming: the token to resume from.
    open var changeTokenUpdatedBlock: ((CKServerChangeToken) -> Void)?
    /// Called last: the token to store and whether more is coming, or the operation's error.
    open var fetchDatabaseChangesResultBlock: ((Result<(serverChangeToken: CKServerChangeToken, moreComing: Bool), any Error>) -> Void)?
    /// Called last with the token to store, whether more is coming, and the operation's error.
    @available(*, deprecated, message: "Use fetchDatabaseChangesResultBlock")
    open var fetchDatabaseChangesCompletionBlock: ((CKServerChangeToken?, Bool, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: ((CKServerChangeToken?, Bool, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation fetching the database's changes since `previousServerChangeToken`.
    public convenience init(previousServerChangeToken: CKServerChangeToken?) {
        self.init()
        self.previousServerChangeToken = previousServerChangeToken
    }

    override func execute() async {
        do {
            let database = try requireDatabase()
            var token = previousServerChangeToken
            while true {
                try checkCancelled()
                let page = try await database.databaseChanges(since: token, resultsLimit: resultsLimit > 0 ? resultsLimit : nil)
                for modification in page.modifications {
                    recordZoneWithIDChangedBlock?(modification.zoneID)
                }
                for deletion in page.deletions {
                    report(deletion)
                }
                token = page.changeToken
                if page.moreComing && fetchAllChanges {
                    changeTokenUpdatedBlock?(page.changeToken)
                    continue
                }
                fetchDatabaseChangesResultBlock?(.success((serverChangeToken: page.changeToken, moreComing: page.moreComing)))
                legacyCompletion?(page.changeToken, page.moreComing, nil)
                return
            }
        } catch {
            finish(with: Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        fetchDatabaseChangesResultBlock?(.failure(error))
        legacyCompletion?(nil, false, error)
    }

    /// A deleted zone, to the block its reason calls for; a purged or reset zone goes to the
    /// deleted block when its own block is not set, as Apple's header says.
    private func report(_ deletion: CKDatabase.DatabaseChange.Deletion) {
        let block: ((CKRecordZone.ID) -> Void)? =
            switch deletion.reason {
            case .deleted: recordZoneWithIDWasDeletedBlock
            case .purged: recordZoneWithIDWasPurgedBlock ?? recordZoneWithIDWasDeletedBlock
            case .encryptedDataReset: recordZoneWithIDWasDeletedDueToUserEncryptedDataResetBlock ?? recordZoneWithIDWasDeletedBlock
            }
        block?(deletion.zoneID)
    }
}
