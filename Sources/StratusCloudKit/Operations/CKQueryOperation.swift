import Foundation
import StratusModel

/// Runs a query page by page from the caller's side: each matching record, then the cursor of
/// the next page (``Cursor``) while more match.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKQueryOperation: CKDatabaseOperation, @unchecked Sendable {
    /// Where a query's results continue: the query, its zone and the server's marker.
    public typealias Cursor = CKQueryCursor
    /// As many results as the server gives in a page.
    public static let maximumResults = 0

    open var query: CKQuery?
    open var cursor: Cursor?
    open var zoneID: CKRecordZone.ID?
    open var resultsLimit: Int = CKQueryOperation.maximumResults
    open var desiredKeys: [CKRecord.FieldKey]?

    open var recordMatchedBlock: ((CKRecord.ID, Result<CKRecord, any Error>) -> Void)?
    open var queryResultBlock: ((Result<Cursor?, any Error>) -> Void)?
    @available(*, deprecated, message: "Use recordMatchedBlock")
    open var recordFetchedBlock: ((CKRecord) -> Void)? {
        get { legacyFetched }
        set { legacyFetched = newValue }
    }
    @available(*, deprecated, message: "Use queryResultBlock")
    open var queryCompletionBlock: ((Cursor?, (any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyFetched: ((CKRecord) -> Void)?
    private var legacyCompletion: ((Cursor?, (any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    public convenience init(query: CKQuery) {
        self.init()
        self.query = query
    }

    public convenience init(cursor: Cursor) {
        self.init()
        self.cursor = cursor
    }

    override func execute() async {
        do {
            let database = try requireDatabase()
            let page: (matchResults: [(CKRecord.ID, Result<CKRecord, any Error>)], queryCursor: Cursor?)
            if let cursor {
                page = try await database.records(continuingMatchFrom: cursor, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            } else if let query {
                page = try await database.records(matching: query, inZoneWith: zoneID, desiredKeys: desiredKeys, resultsLimit: resultsLimit)
            } else {
                throw CKError(.invalidArguments, "a query operation needs a query or a cursor")
            }
            // The legacy per-record block only when the modern one is not set, as Apple's.
            let legacyFetched = recordMatchedBlock == nil ? legacyFetched : nil
            for (id, result) in page.matchResults {
                if Task.isCancelled { throw CKError(.operationCancelled, "the operation was cancelled") }
                recordMatchedBlock?(id, result)
                if case .success(let record) = result { legacyFetched?(record) }
            }
            queryResultBlock?(.success(page.queryCursor))
            legacyCompletion?(page.queryCursor, nil)
        } catch {
            finish(with: CKError.wrapping(error))
        }
    }

    override func finish(with error: CKError) {
        queryResultBlock?(.failure(error))
        legacyCompletion?(nil, error)
    }
}

/// Where a query's results continue (`CKQueryOperation.Cursor`; top-level, as its Objective-C name).
public final class CKQueryCursor: NSObject, NSSecureCoding, Sendable {
    let query: Query
    let zoneID: CKRecordZone.ID?
    let marker: String

    init(query: Query, zoneID: CKRecordZone.ID?, marker: String) {
        self.query = query
        self.zoneID = zoneID
        self.marker = marker
    }

    public static var supportsSecureCoding: Bool { true }

    /// What `CursorData` holds in archives written here: the query and the server's marker.
    private struct CursorData: Codable {
        var query: Query
        var marker: String
    }

    /// Archived under Apple's keys (`CursorData`, `ZoneID`).
    public func encode(with coder: NSCoder) {
        if let data = try? JSONEncoder().encode(CursorData(query: query, marker: marker)) { coder.encode(data as NSData, forKey: "CursorData") }
        if let zoneID { coder.encode(zoneID, forKey: "ZoneID") }
    }

    /// A cursor from an archive. One Apple's service issued holds its own private data: the
    /// cursor decodes, and continuing from it fails `invalidArguments`, as a cursor of another
    /// server would (run the query again).
    public init?(coder: NSCoder) {
        zoneID = coder.object(CKRecordZone.ID.self, "ZoneID", "zoneID")
        if let data = coder.data("CursorData") {
            let cursor = try? JSONDecoder().decode(CursorData.self, from: data)
            query = cursor?.query ?? Query(recordType: "")
            marker = cursor?.marker ?? data.base64EncodedString()
        } else if let data = coder.data("query"),
            let query = try? JSONDecoder().decode(Query.self, from: data), let marker = coder.string("marker")
        {
            self.query = query
            self.marker = marker
        } else {
            return nil
        }
    }
}
