import Foundation

/// Fetches what share URLs lead to (``CKContainer/shareMetadatas(for:shouldFetchRootRecord:)``):
/// each URL's ``CKShare/Metadata``, then the whole — a failure of any URL makes the legacy completion
/// block's error a `partialFailure` keyed by URL. A container operation: run it with ``CKContainer/add(_:)``.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKFetchShareMetadataOperation: CKOperation, @unchecked Sendable {
    /// The share URLs to resolve.
    open var shareURLs: [URL]?
    /// Whether each metadata carries its share's root record (``CKShare/Metadata/rootRecord``).
    open var shouldFetchRootRecord = false
    /// The root record's fields to fetch (`nil`: every field). The server answers the whole
    /// root record; this is kept for Apple's API.
    open var rootRecordDesiredKeys: [CKRecord.FieldKey]?

    /// Called once for each URL: its share's metadata, or why it could not be resolved.
    open var perShareMetadataResultBlock: ((URL, Result<CKShare.Metadata, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var fetchShareMetadataResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called once for each URL with its metadata or its error.
    @available(*, deprecated, message: "Use perShareMetadataResultBlock")
    open var perShareMetadataBlock: ((URL, CKShare.Metadata?, (any Error)?) -> Void)? {
        get { legacyPerShare }
        set { legacyPerShare = newValue }
    }
    /// Called last with the operation's error.
    @available(*, deprecated, message: "Use fetchShareMetadataResultBlock")
    open var fetchShareMetadataCompletionBlock: (((any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyPerShare: ((URL, CKShare.Metadata?, (any Error)?) -> Void)?
    private var legacyCompletion: (((any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation resolving these share URLs.
    public convenience init(shareURLs: [URL]) {
        self.init()
        self.shareURLs = shareURLs
    }

    override func execute() async {
        let urls = Self.unique(shareURLs ?? [])
        do {
            try checkCancelled()
            let container = try requireContainer()
            var results: [URL: Result<CKShare.Metadata, any Error>] = [:]
            if !urls.isEmpty { results = try await container.shareMetadatas(for: urls, shouldFetchRootRecord: shouldFetchRootRecord) }
            var failures: [AnyHashable: any Error] = [:]
            for url in urls {
                let result = results[url] ?? .failure(CKError(.internalError, "no answer for \(url)"))
                perShareMetadataResultBlock?(url, result)
                switch result {
                case .success(let metadata): legacyPerShare?(url, metadata, nil)
                case .failure(let error):
                    failures[url] = error
                    legacyPerShare?(url, nil, error)
                }
            }
            complete(CKError.partialFailure(failures, of: urls.count))
        } catch {
            complete(Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(error)
    }

    private func complete(_ error: CKError?) {
        fetchShareMetadataResultBlock?(Self.modernResult(error))
        legacyCompletion?(error)
    }
}
