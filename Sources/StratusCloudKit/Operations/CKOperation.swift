import Foundation
import Synchronization

/// The base of CloudKit's operations: an asynchronous Foundation `Operation` whose work is a
/// request (or a few) to the server, run in a task. Add one to a database (``CKDatabase/add(_:)``)
/// or a container; its per-item blocks, then its result block, are called from that task, in
/// Apple's order, before `completionBlock`. It reports `isExecuting` and `isFinished` through
/// key-value observation, as an asynchronous operation must, and no thread waits for it.
/// Cancelling it ends its work with `operationCancelled`.
// `@unchecked Sendable` as Apple declares it: its lifecycle lives in `lifecycle` (a `Mutex`); its
// open properties are set before it is added to a queue, as Apple documents.
open class CKOperation: Operation, @unchecked Sendable {
    /// How an operation runs: its container, quality of service and timeouts.
    // `@unchecked Sendable` as Apple declares it: it is set up before its operation is queued.
    open class Configuration: NSObject, @unchecked Sendable {
        open var container: CKContainer?
        open var qualityOfService: QualityOfService = .default
        open var allowsCellularAccess = true
        open var isLongLived = false
        open var timeoutIntervalForRequest: TimeInterval = 60
        open var timeoutIntervalForResource: TimeInterval = 7 * 24 * 3600

        public override init() {}
    }

    /// An operation's identifier (`CKOperation.ID`).
    public typealias ID = String

    /// This operation's configuration (its container, when not added to a database).
    open var configuration: Configuration! = Configuration()
    /// An identifier unique to this operation: what ``CKContainer/longLivedOperation(for:)``
    /// finds a long-lived operation by.
    public let operationID: ID = UUID().uuidString
    /// Called once a long-lived operation (``Configuration/isLongLived``) is remembered by its
    /// container — when it is added to a database or container, or started — before its other
    /// blocks; from then until it finishes, ``CKContainer/allLongLivedOperationIDs()`` lists it.
    open var longLivedOperationWasPersistedBlock: (() -> Void)?
    /// The group the operation belongs to (an app's label for work done together).
    open var group: CKOperationGroup? {
        get { lifecycle.withLock { $0.group } }
        set { lifecycle.withLock { $0.group = newValue } }
    }

    private let lifecycle = Mutex(Lifecycle())

    public override init() {
        super.init()
    }

    /// The container requests go to: the configuration's.
    var targetContainer: CKContainer? { configuration?.container }

    /// The container a long-lived operation is remembered by: the configuration's (a database
    /// operation's database's first).
    var owningContainer: CKContainer? { targetContainer }

    open override var isAsynchronous: Bool { true }
    open override var isExecuting: Bool { lifecycle.withLock { $0.phase == .executing } }
    open override var isFinished: Bool { lifecycle.withLock { $0.phase == .finished } }

    /// Starts the operation's work in a task and returns. An operation cancelled before it starts
    /// runs no work (Foundation's rule) but still answers its result block, with
    /// `operationCancelled`, as Apple's do. Starting it again does nothing.
    open override func start() {
        guard enter(.executing, from: .ready) else { return }
        if let container = owningContainer { rememberIfLongLived(in: container) }
        if isCancelled {
            reportCancellation()
            enter(.finished, from: .executing)
            return
        }
        let task = Task {
            await self.execute()
            self.enter(.finished, from: .executing)
        }
        lifecycle.withLock { $0.work = task }
        if isCancelled { task.cancel() }
    }

    open override func cancel() {
        super.cancel()
        lifecycle.withLock { $0.work }?.cancel()
    }

    /// Moves to `phase` when the operation is in `previous`, telling observers of the keys that
    /// change; false when it was not.
    @discardableResult
    private func enter(_ phase: Lifecycle.Phase, from previous: Lifecycle.Phase) -> Bool {
        let keys = [previous.observedKey, phase.observedKey].compactMap { $0 }
        for key in keys { willChangeValue(forKey: key) }
        let moved = lifecycle.withLock { lifecycle in
            guard lifecycle.phase == previous else { return false }
            lifecycle.phase = phase
            if phase == .finished { lifecycle.work = nil }
            return true
        }
        // Forgotten before observers hear it finished (its `completionBlock` among them).
        if moved, phase == .finished { forgetIfLongLived() }
        for key in keys { didChangeValue(forKey: key) }
        return moved
    }

    // MARK: - Queueing and long-lived operations (CKOperation+LongLived.swift)

    /// Notes that the operation was handed to CloudKit's queue; false when it already was (a
    /// long-lived operation the app fetched and adds again keeps running where it is).
    func markEnqueued() -> Bool {
        lifecycle.withLock { lifecycle -> Bool in
            defer { lifecycle.enqueued = true }
            return !lifecycle.enqueued && lifecycle.phase == .ready
        }
    }

    /// Remembers the operation in `container`'s long-lived operations when its configuration
    /// makes it long-lived and it is not finished, calling the persisted block the first time.
    func rememberIfLongLived(in container: CKContainer) {
        guard configuration?.isLongLived == true else { return }
        let key = LongLivedOperations.key(of: container)
        let first = lifecycle.withLock { lifecycle -> Bool in
            guard lifecycle.longLivedKey == nil, lifecycle.phase != .finished else { return false }
            lifecycle.longLivedKey = key
            return true
        }
        guard first else { return }
        LongLivedOperations.remember(self, under: key)
        longLivedOperationWasPersistedBlock?()
    }

    /// Forgets a finished long-lived operation.
    private func forgetIfLongLived() {
        guard let key = lifecycle.withLock({ $0.longLivedKey }) else { return }
        LongLivedOperations.forget(operationID, under: key)
    }

    /// Answers `operationCancelled` once, however many paths find the operation cancelled.
    private func reportCancellation() {
        let first = lifecycle.withLock { lifecycle -> Bool in
            defer { lifecycle.cancellationReported = true }
            return !lifecycle.cancellationReported
        }
        if first { finish(with: CKError(.operationCancelled, "the operation was cancelled")) }
    }

    /// The operation's work; subclasses call their blocks from here.
    func execute() async {}

    /// Reports a failure that ends the operation before its work ran; subclasses answer their result block.
    func finish(with error: CKError) {}
}

/// Where an operation is in its life, and what its work shares across threads.
private struct Lifecycle: Sendable {
    enum Phase: Sendable {
        case ready, executing, finished

        /// The key-value observing key that reports this phase.
        var observedKey: String? {
            switch self {
            case .ready: nil
            case .executing: "isExecuting"
            case .finished: "isFinished"
            }
        }
    }

    var phase = Phase.ready
    var work: Task<Void, Never>?
    var cancellationReported = false
    var group: CKOperationGroup?
    /// Whether CloudKit's queue was given the operation.
    var enqueued = false
    /// The key of the container that remembers the operation as long-lived, once it does.
    var longLivedKey: String?
}

/// An operation on one database; ``CKDatabase/add(_:)`` sets ``database``.
// `@unchecked Sendable` as Apple declares it: `database` is set before the operation is queued.
open class CKDatabaseOperation: CKOperation, @unchecked Sendable {
    open var database: CKDatabase?

    override var owningContainer: CKContainer? { database?.container ?? targetContainer }

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
        guard operation.markEnqueued() else { return }
        operation.database = self
        operation.rememberIfLongLived(in: container)
        OperationQueues.shared.addOperation(operation)
    }
}

extension CKContainer {
    /// Runs an operation in this container (a database operation without a database acts on
    /// the private database).
    public func add(_ operation: CKOperation) {
        guard operation.markEnqueued() else { return }
        if operation.configuration == nil { operation.configuration = CKOperation.Configuration() }
        operation.configuration.container = self
        operation.rememberIfLongLived(in: self)
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
