import Foundation

/// The base of CloudKit's operations: a Foundation `Operation` whose work is a request (or a
/// few) to the server. Add one to a database (``CKDatabase/add(_:)``) or a container; its
/// per-item blocks, then its result block, are called from its work's task, in Apple's order,
/// before `completionBlock`. Cancelling it ends its work with `operationCancelled`.
open class CKOperation: Operation, @unchecked Sendable {
    /// How an operation runs: its container, quality of service and timeouts.
    open class Configuration: NSObject, @unchecked Sendable {
        open var container: CKContainer?
        open var qualityOfService: QualityOfService = .default
        open var allowsCellularAccess = true
        open var isLongLived = false
        open var timeoutIntervalForRequest: TimeInterval = 60
        open var timeoutIntervalForResource: TimeInterval = 7 * 24 * 3600

        public override init() {}
    }

    /// This operation's configuration (its container, when not added to a database).
    open var configuration: Configuration! = Configuration()
    /// An identifier unique to this operation.
    public let operationID = UUID().uuidString
    /// The group the operation belongs to (an app's label for work done together).
    open var group: CKOperationGroup? {
        get { state.withLock { storedGroup } }
        set { state.withLock { storedGroup = newValue } }
    }

    private let state = NSLock()
    private var work: Task<Void, Never>?
    private var cancellationReported = false
    private var storedGroup: CKOperationGroup?

    public override init() {
        super.init()
    }

    /// The container requests go to: the configuration's.
    var targetContainer: CKContainer? { configuration?.container }

    /// An operation cancelled before it starts skips `main()` (Foundation's rule): it still
    /// answers its result block, with `operationCancelled`, as Apple's do.
    open override func start() {
        if isCancelled { reportCancellation() }
        super.start()
    }

    open override func main() {
        if isCancelled {
            reportCancellation()
            return
        }
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            await self.execute()
            done.signal()
        }
        state.withLock { work = task }
        if isCancelled { task.cancel() }
        done.wait()
    }

    open override func cancel() {
        super.cancel()
        state.withLock { work }?.cancel()
    }

    /// Answers `operationCancelled` once, however many paths find the operation cancelled.
    private func reportCancellation() {
        let first = state.withLock { () -> Bool in
            defer { cancellationReported = true }
            return !cancellationReported
        }
        if first { finish(with: CKError(.operationCancelled, "the operation was cancelled")) }
    }

    /// The operation's work; subclasses call their blocks from here.
    func execute() async {}

    /// Reports a failure that ends the operation before its work ran; subclasses answer their result block.
    func finish(with error: CKError) {}
}

/// An operation on one database; ``CKDatabase/add(_:)`` sets ``database``.
open class CKDatabaseOperation: CKOperation, @unchecked Sendable {
    open var database: CKDatabase?

    /// The database the operation acts on, or `invalidArguments` without one.
    func requireDatabase() throws(CKError) -> CKDatabase {
        if let database { return database }
        // As on Apple: no database and no container is the default container's private database.
        return (targetContainer ?? CKContainer.default()).privateCloudDatabase
    }
}

extension CKDatabase {
    /// Runs an operation on this database.
    public func add(_ operation: CKDatabaseOperation) {
        operation.database = self
        OperationQueues.shared.addOperation(operation)
    }
}

extension CKContainer {
    /// Runs an operation in this container (a database operation without a database acts on
    /// the private database).
    public func add(_ operation: CKOperation) {
        if operation.configuration == nil { operation.configuration = CKOperation.Configuration() }
        operation.configuration.container = self
        OperationQueues.shared.addOperation(operation)
    }
}

/// Where added operations run.
enum OperationQueues {
    static let shared: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "StratusCloudKit"
        queue.maxConcurrentOperationCount = 8
        return queue
    }()
}
