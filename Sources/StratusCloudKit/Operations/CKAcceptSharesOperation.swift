import Foundation

/// Accepts shares (``CKContainer/accept(_:)``): each share's zone then appears in the caller's
/// shared database. Reports each metadata's share, then the whole — a failure of any share
/// makes the legacy completion block's error a `partialFailure` keyed by the failed ``CKShare/Metadata``. A container
/// operation: run it with ``CKContainer/add(_:)``.
// `@unchecked Sendable` as Apple declares it (Swift makes each subclass restate it): its inputs and
// blocks are set before it is queued, and only its one task reads them after.
open class CKAcceptSharesOperation: CKOperation, @unchecked Sendable {
    /// The metadatas of the shares to accept.
    open var shareMetadatas: [CKShare.Metadata]?

    /// Called once for each metadata: the accepted share, or why it was not accepted.
    open var perShareResultBlock: ((CKShare.Metadata, Result<CKShare, any Error>) -> Void)?
    /// Called last: success (items that failed were reported one by one), or the operation's error;
    /// only the legacy completion block gets a `partialFailure`.
    open var acceptSharesResultBlock: ((Result<Void, any Error>) -> Void)?
    /// Called once for each metadata with the accepted share or its error.
    @available(*, deprecated, message: "Use perShareResultBlock")
    open var perShareCompletionBlock: ((CKShare.Metadata, CKShare?, (any Error)?) -> Void)? {
        get { legacyPerShare }
        set { legacyPerShare = newValue }
    }
    /// Called last with the operation's error.
    @available(*, deprecated, message: "Use acceptSharesResultBlock")
    open var acceptSharesCompletionBlock: (((any Error)?) -> Void)? {
        get { legacyCompletion }
        set { legacyCompletion = newValue }
    }
    private var legacyPerShare: ((CKShare.Metadata, CKShare?, (any Error)?) -> Void)?
    private var legacyCompletion: (((any Error)?) -> Void)?

    public override init() {
        super.init()
    }

    /// An operation accepting the shares these metadatas describe.
    public convenience init(shareMetadatas: [CKShare.Metadata]) {
        self.init()
        self.shareMetadatas = shareMetadatas
    }

    override func execute() async {
        let metadatas = Self.unique(shareMetadatas ?? [])
        do {
            try checkCancelled()
            let container = try requireContainer()
            var results: [CKShare.Metadata: Result<CKShare, any Error>] = [:]
            if !metadatas.isEmpty { results = try await container.accept(metadatas) }
            var failures: [AnyHashable: any Error] = [:]
            for metadata in metadatas {
                let result = results[metadata] ?? .failure(CKError(.internalError, "no answer for share \(metadata.share.recordID.recordName)"))
                perShareResultBlock?(metadata, result)
                switch result {
                case .success(let share): legacyPerShare?(metadata, share, nil)
                case .failure(let error):
                    failures[metadata] = error
                    legacyPerShare?(metadata, nil, error)
                }
            }
            complete(CKError.partialFailure(failures, of: metadatas.count))
        } catch {
            complete(Self.ckError(error))
        }
    }

    override func finish(with error: CKError) {
        complete(error)
    }

    private func complete(_ error: CKError?) {
        acceptSharesResultBlock?(Self.modernResult(error))
        legacyCompletion?(error)
    }
}
