import Foundation

/// Fetches the records changed and deleted in zones since each zone's change token
/// (``CKDatabase/recordZoneChanges(inZoneWith:since:desiredKeys:resultsLimit:)``), zone by zone
/// and page by page. For each page: its changed and deleted records, then — while the zone has
/// more — its change token (``recordZoneChangeTokensUpdatedBlock``); when a zone is done, its
/// result (``recordZoneFetchResultBlock``); the operation's result last. A zone that fails
/// (not found, token expired) is reported in its zone result; the operation's result then
/// succeeds, and only the legacy completion block gets a `partialFailure` keyed by zone ID.
/// A legacy per-record or per-zone block is called only when its modern counterpart is not set.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchRecordZoneChangesOperation: CKDatabaseOperation, @unchecked Sendable {
    /// How one zone is fetched: its change token, page size and fields.
    public typealias ZoneConfiguration = CKFetchRecordZoneChangesConfiguration

    /// The zones to fetch, in order.
    open var recordZoneIDs: [CKRecordZone.ID]?
    /// Each zone's configuration (a zone without one is fetched from the start, every field).
    open var configurationsByRecordZoneID: [CKRecordZone.ID: ZoneConfiguration]?
    /// Whether to keep fetching a zone while the server has more (`false`: one page a zone,
    /// its result saying whether more is coming).
    open var fetchAllChanges = true

    /// Called for each changed record: the record, or why it could not be read.
    open var recordWasChangedBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    /// Called for each deleted record, with its type.
    open var recordWithIDWasDeletedBlock: ((CKRecord.ID, CKRecord.RecordType) -> Void)?
    /// Called after each page of a zone that has more: the token to resume from, and the client
    /// change token the app last sent with a modify of the zone
    /// (``CKModifyRecordsOperation/clientChangeTokenData``).
    open var recordZoneChangeTokensUpdatedBlock: ((CKRecordZone.ID, CKServerChangeToken?, Data?) -> Void)?
    /// Called when a zone is done: its final token, the client change token the app last sent
    /// with a modify of the zone, and whether more is coming — or its error.
    open var recordZoneFetchResultBlock:
        ((CKRecordZone.ID, Result<(serverChangeToken: CKServerChangeToken, clientChangeTokenData: Data?, moreComing: Bool), any Error>) -> Void)?
    /// Called last: success (zones that failed were reported per zone), or the operation's error.
    open var fetchRecordZoneChangesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called for each changed record that could be read.
    @available(*, deprecated, message: "Use recordWasChangedBlock")
    open var recordChangedBlock: ((CKRecord) -> Void)? {
        get { legacyChanged }
        set { legacyChanged = newValue }
    }
    /// Called when a zone is done: its token, client token data, whether more is coming, its error.
    @available(*, deprecated, message: "Use recordZoneFetchResultBlock")
    open var recordZoneFetchCompletionBlock: ((CKRecordZone.ID, CKServerChangeToken?, Data?, Bool, (any Error)?) -> Void)? {
        get { legacyZoneCompletion }
        set { legacyZoneCompletion = newValue }
    }
    /// Called last with the operation's error.
    @available(*, deprecated, message: "Use fetchRecordZoneChangesResultBlock")
    open var fetchRecordZoneChangesCompletionBlock: (((any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyChanged: ((CKRecord) -> Void)?
    private var legacyZoneCompletion: ((CKRecordZone.ID, CKServerChangeToken?, Data?, Bool, (any Error)?) -> Void)?
    private var legacyCompletion: (((any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation fetching the changes of these zones, each as its configuration says.
    public convenience init(recordZoneIDs: [CKRecordZone.ID], configurationsByRecordZoneID: [CKRecordZone.ID: ZoneConfiguration]? = nil) {
        self.init()
        self.recordZoneIDs = recordZoneIDs
        self.configurationsByRecordZoneID = configurationsByRecordZoneID
    }

    override func execute() async {
        let zoneIDs = Self.unique(recordZoneIDs ?? [])
        do {
            let database = try requireDatabase()
            var failures: [AnyHashable: any Error] = [:]
            for zoneID in zoneIDs {
                if let error = try await fetchChanges(in: zoneID, from: database) { failures[zoneID] = error }
            }
            complete(CKError.partialFailure(failures, of: zoneIDs.count))
        } catch {
            complete(Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(error)
    }

    private func complete(_ error: CKError?) {
        fetchRecordZoneChangesResultBlock?(Self.modernResult(error))
        legacyCompletion?(error)
    }

    /// Fetches one zone page by page, reporting as it goes. Answers the zone's own failure (it
    /// is reported and the next zone fetched); throws a failure of the request or cancellation.
    private func fetchChanges(in zoneID: CKRecordZone.ID, from database: CKDatabase) async throws -> CKError? {
        let configuration = configurationsByRecordZoneID?[zoneID]
        var token = configuration?.previousServerChangeToken
        while true {
            try checkCancelled()
            let page: (
                modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
                deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool, clientChangeTokenData: Data?
            )
            do {
                page = try await database.zoneChangesPage(
                    inZoneWith: zoneID, since: token, desiredKeys: configuration?.desiredKeys, resultsLimit: configuration?.pageLimit,
                    clientChangeToken: true
                )
            } catch {
                let failure = Self.ckError(error)
                if failure.code == .operationCancelled { throw failure }
                reportZone(zoneID, .failure(failure))
                guard CKDatabase.isItemLevel(failure) else { throw failure }
                return failure
            }
            for (id, result) in Self.inChangeOrder(page.modificationResultsByID) {
                let record = result.map(\.record)
                if let recordWasChangedBlock {
                    recordWasChangedBlock(id, record)
                } else if case .success(let changed) = record {
                    legacyChanged?(changed)
                }
            }
            for deletion in page.deletions {
                recordWithIDWasDeletedBlock?(deletion.recordID, deletion.recordType)
            }
            token = page.changeToken
            // The token this device last sent with a modify that changed the zone, as the server keeps it.
            let clientToken = page.clientChangeTokenData
            if page.moreComing && fetchAllChanges {
                recordZoneChangeTokensUpdatedBlock?(zoneID, page.changeToken, clientToken)
                continue
            }
            reportZone(zoneID, .success((serverChangeToken: page.changeToken, clientChangeTokenData: clientToken, moreComing: page.moreComing)))
            return nil
        }
    }

    private func reportZone(
        _ zoneID: CKRecordZone.ID, _ result: Result<(serverChangeToken: CKServerChangeToken, clientChangeTokenData: Data?, moreComing: Bool), CKError>
    ) {
        if let recordZoneFetchResultBlock {
            recordZoneFetchResultBlock(zoneID, result.mapError { $0 as any Error })
            return
        }
        switch result {
        case .success(let done): legacyZoneCompletion?(zoneID, done.serverChangeToken, done.clientChangeTokenData, done.moreComing, nil)
        case .failure(let error): legacyZoneCompletion?(zoneID, nil, nil, false, error)
        }
    }

    /// A page's changed records as the server changed them: by modification date, then name;
    /// records that could not be read last.
    private static func inChangeOrder(
        _ results: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>]
    ) -> [(CKRecord.ID, Result<CKDatabase.RecordZoneChange.Modification, any Error>)] {
        func key(_ entry: (CKRecord.ID, Result<CKDatabase.RecordZoneChange.Modification, any Error>)) -> (Date, String) {
            guard case .success(let modification) = entry.1 else { return (.distantFuture, entry.0.recordName) }
            return (modification.record.modificationDate ?? .distantFuture, entry.0.recordName)
        }
        return results.map { ($0.key, $0.value) }.sorted { key($0) < key($1) }
    }
}
