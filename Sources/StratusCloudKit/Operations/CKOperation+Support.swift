import Foundation

/// What the operations share: the cancellation check made before each request, the container
/// of a container operation, and errors in CloudKit's terms.
extension CKOperation {
    /// Throws `operationCancelled` once the operation (or its task) was cancelled; operations
    /// call it before each request.
    func checkCancelled() throws(CKError) {
        if isCancelled || Task.isCancelled { throw CKError(.operationCancelled, "the operation was cancelled") }
    }

    /// The container a container operation acts in, or `invalidArguments` without one.
    func requireContainer() throws(CKError) -> CKContainer {
        if let container = targetContainer { return container }
        throw CKError(.invalidArguments, "the operation has no container: add it to a CKContainer")
    }

    /// An error as a result block reports it: a ``CKError`` as it is, anything else an `internalError`.
    static func ckError(_ error: any Error) -> CKError {
        CKError.wrapping(error)
    }

    /// What a modern result block (`modifyRecordsResultBlock`, `fetchRecordsResultBlock`, …)
    /// answers for an operation whose whole error is `error`: items that failed were reported
    /// through the per-item blocks, so a `partialFailure` is a success here, as on Apple's service
    /// (only the legacy completion blocks report it).
    static func modernResult(_ error: CKError?) -> Result<Void, any Error> {
        guard let error, error.code != .partialFailure else { return .success(()) }
        return .failure(error)
    }

    /// The items of `items` in order, each once (an item asked for twice is answered once).
    static func unique<Item: Hashable>(_ items: [Item]) -> [Item] {
        var seen: Set<Item> = []
        return items.filter { seen.insert($0).inserted }
    }
}
