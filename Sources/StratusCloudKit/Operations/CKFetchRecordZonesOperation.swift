import Foundation

/// Fetches record zones by ID (``CKDatabase/recordZones(for:)``) or every zone of the database
/// (``fetchAllRecordZonesOperation()``), reporting each zone, then the whole: a failed item is reported by itself (the legacy
/// completion block gets a `partialFailure` keyed by zone ID).
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchRecordZonesOperation: CKDatabaseOperation, @unchecked Sendable {
    /// The zones to fetch (`nil` for an operation fetching every zone).
    open var recordZoneIDs: [CKRecordZone.ID]?

    /// Called once for each zone: the zone, or why it could not be fetched.
    open var perRecordZoneResultBlock: ((CKRecordZone.ID, Result<CKRecordZone, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var fetchRecordZonesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called last with the fetched zones by ID and the operation's error.
    @available(*, deprecated, message: "Use fetchRecordZonesResultBlock")
    open var fetchRecordZonesCompletionBlock: (([CKRecordZone.ID: CKRecordZone]?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyCompletion: (([CKRecordZone.ID: CKRecordZone]?, (any Error)?) -> Void)?
    /// Whether the operation fetches every zone (``fetchAllRecordZonesOperation()``).
    private var fetchesAllZones = false

    public required override init() {
        super.init()
    }

    /// An operation fetching the zones with these IDs.
    public convenience init(recordZoneIDs: [CKRecordZone.ID]) {
        self.init()
        self.recordZoneIDs = recordZoneIDs
    }

    /// An operation fetching every zone of the database it is added to.
    public class func fetchAllRecordZonesOperation() -> Self {
        let operation = self.init()
        operation.fetchesAllZones = true
        return operation
    }

    override func execute() async {
        do {
            try checkCancelled()
            let database = try requireDatabase()
            var ids: [CKRecordZone.ID] = []
            var results: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
            if fetchesAllZones && recordZoneIDs == nil {
                for zone in try await database.allRecordZones() where results[zone.zoneID] == nil {
                    ids.append(zone.zoneID)
                    results[zone.zoneID] = .success(zone)
                }
            } else {
                ids = Self.unique(recordZoneIDs ?? [])
                if !ids.isEmpty { results = try await database.recordZones(for: ids) }
            }
            var failures: [AnyHashable: any Error] = [:]
            var fetched: [CKRecordZone.ID: CKRecordZone] = [:]
            for id in ids {
                let result = results[id] ?? .failure(CKError(.internalError, "no answer for zone \(id.zoneName)"))
                perRecordZoneResultBlock?(id, result)
                switch result {
                case .success(let zone): fetched[id] = zone
                case .failure(let error): failures[id] = error
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

    private func complete(fetched: [CKRecordZone.ID: CKRecordZone]?, error: CKError?) {
        fetchRecordZonesResultBlock?(Self.modernResult(error))
        legacyCompletion?(fetched, error)
    }
}
