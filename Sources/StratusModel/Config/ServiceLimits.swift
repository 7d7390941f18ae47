/// The request limits a server enforces (and a client batches within).
///
/// ``strict`` is Apple's documented CloudKit Web Services figures and the default;
/// ``lenient`` is for bulk imports and load tests.
public struct ServiceLimits: Sendable, Hashable, Codable {
    /// Operations per records/modify or zones/modify request, and names per lookup.
    public var operationsPerRequest: Int
    /// Bytes of one record's fields (assets excluded).
    public var recordBytes: Int
    /// Bytes of one request body.
    public var requestBytes: Int
    /// Records per response page (the default and the maximum `resultsLimit`).
    public var resultsPerPage: Int
    /// Participants of one share, the owner included (CloudKit's `tooManyParticipants` figure).
    public var participantsPerShare: Int
    /// `filterBy` entries of one query (Stratus's bound; Apple documents none).
    public var filtersPerQuery: Int
    /// `sortBy` entries of one query (Stratus's bound; Apple documents none).
    public var sortsPerQuery: Int
    /// Bytes of one asset file (the web upload documentation's 15 MB).
    public var assetBytes: Int64

    public init(
        operationsPerRequest: Int, recordBytes: Int, requestBytes: Int, resultsPerPage: Int, participantsPerShare: Int = 100,
        filtersPerQuery: Int = 100, sortsPerQuery: Int = 16, assetBytes: Int64 = 15 * 1024 * 1024
    ) {
        self.operationsPerRequest = operationsPerRequest
        self.recordBytes = recordBytes
        self.requestBytes = requestBytes
        self.resultsPerPage = resultsPerPage
        self.participantsPerShare = participantsPerShare
        self.filtersPerQuery = filtersPerQuery
        self.sortsPerQuery = sortsPerQuery
        self.assetBytes = assetBytes
    }

    /// Items Apple's framework takes in one modify (`CKModifyRecordsOperation`): a client that
    /// asks for ``WireExtensions/frameworkBatches`` may send this many operations at once.
    public static let frameworkOperationsPerModify = 400

    /// The operations one records/modify may carry for a client asking for `extensions`.
    public func operationsPerModify(_ extensions: WireExtensions) -> Int {
        extensions.contains(.frameworkBatches) ? max(operationsPerRequest, Self.frameworkOperationsPerModify) : operationsPerRequest
    }

    /// Apple's figures: 200 operations, 1 MB a record, 2 MB a request, 200 results a page, 15 MB an asset.
    public static let strict = ServiceLimits(
        operationsPerRequest: 200, recordBytes: 1_000_000, requestBytes: 2_000_000, resultsPerPage: 200
    )

    /// Ten times the strict figures, for imports and load tests.
    public static let lenient = ServiceLimits(
        operationsPerRequest: 2_000, recordBytes: 10_000_000, requestBytes: 20_000_000, resultsPerPage: 2_000,
        assetBytes: 150 * 1024 * 1024
    )
}
