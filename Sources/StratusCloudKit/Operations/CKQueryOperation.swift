import Foundation
import StratusModel

/// Runs a query page by page from the caller's side: each matching record, then the cursor of
/// the next page (``Cursor``) while more match.
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
            for (id, result) in page.matchResults {
                if Task.isCancelled { throw CKError(.operationCancelled, "the operation was cancelled") }
                recordMatchedBlock?(id, result)
                if case .success(let record) = result { legacyFetched?(record) }
            }
            queryResultBlock?(.success(page.queryCursor))
            legacyCompletion?(page.queryCursor, nil)
        } catch {
            finish(with: error as? CKError ?? CKError(.internalError, "\(error)"))
        }
    }

    override func finish(with error: CKError) {
        queryResultBlock?(.failure(error))
        legacyCompletion?(nil, error)
    }
}

/// Where a query's results continue (`CKQueryOperation.Cursor`; top-level, as its Objective-C name).
public final class CKQueryCursor: NSObject, NSSecureCoding, @unchecked Sendable {
    let query: Query
    let zoneID: CKRecordZone.ID?
    let marker: String

    init(query: Query, zoneID: CKRecordZone.ID?, marker: String) {
        self.query = query
        self.zoneID = zoneID
        self.marker = marker
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        if let data = try? JSONEncoder().encode(query) { coder.encode(data as NSData, forKey: "query") }
        if let zoneID { coder.encode(zoneID, forKey: "zoneID") }
        coder.encode(marker as NSString, forKey: "marker")
    }

    public init?(coder: NSCoder) {
        guard let data = coder.decodeObject(of: NSData.self, forKey: "query") as Data?,
            let query = try? JSONDecoder().decode(Query.self, from: data),
            let marker = coder.decodeObject(of: NSString.self, forKey: "marker")
        else { return nil }
        self.query = query
        self.zoneID = coder.containsValue(forKey: "zoneID") ? coder.decodeObject(of: CKRecordZone.ID.self, forKey: "zoneID") : nil
        self.marker = marker as String
    }
}
