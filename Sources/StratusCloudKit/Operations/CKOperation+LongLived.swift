import Foundation
import Synchronization

// Long-lived operations, as Apple's API names them: an operation whose configuration says
// `isLongLived` is remembered by its container from the moment it is added (its
// `longLivedOperationWasPersistedBlock` is called then) until it finishes, and the container
// lists and hands back the ones still running. Apple's service keeps them across launches of
// the app; here they are kept for the life of the process (a Stratus operation is a task of the
// process, so none outlives it): `allLongLivedOperationIDs()` after a relaunch is empty, as on
// Apple once every operation has finished.

extension CKOperation {
    /// Whether the operation is long-lived: the configuration's ``Configuration/isLongLived``.
    @available(*, deprecated, message: "Use CKOperation.Configuration.isLongLived")
    public var isLongLived: Bool {
        get { configuration?.isLongLived ?? false }
        set {
            if configuration == nil { configuration = Configuration() }
            configuration.isLongLived = newValue
        }
    }
}

extension CKContainer {
    /// The IDs of this container's long-lived operations still running, in the order they were
    /// added.
    public func allLongLivedOperationIDs() async throws -> [CKOperation.ID] {
        LongLivedOperations.running(under: LongLivedOperations.key(of: self)).map(\.operationID)
    }

    /// The long-lived operation with this ID while it runs; `nil` once it finished or was
    /// cancelled. Setting its blocks and adding it again (to its database or this container)
    /// lets it call them as it goes on: it is not run twice.
    public func longLivedOperation(for operationID: CKOperation.ID) async throws -> CKOperation? {
        LongLivedOperations.running(under: LongLivedOperations.key(of: self)).first { $0.operationID == operationID }
    }

    /// ``allLongLivedOperationIDs()``, its answer passed to `completionHandler`.
    public func fetchAllLongLivedOperationIDs(completionHandler: @escaping @Sendable ([CKOperation.ID]?, (any Error)?) -> Void) {
        Task {
            do { completionHandler(try await allLongLivedOperationIDs(), nil) } catch { completionHandler(nil, error) }
        }
    }

    /// ``longLivedOperation(for:)``, its answer passed to `completionHandler`.
    public func fetchLongLivedOperation(
        withID operationID: CKOperation.ID, completionHandler: @escaping @Sendable (CKOperation?, (any Error)?) -> Void
    ) {
        Task {
            do { completionHandler(try await longLivedOperation(for: operationID), nil) } catch { completionHandler(nil, error) }
        }
    }
}

/// The long-lived operations running in this process, by container (its server, identifier,
/// environment and account: `CKContainer.default()` made twice is one container).
enum LongLivedOperations {
    private static let table = Mutex<[String: [CKOperation]]>([:])

    /// The key of `container`'s operations.
    static func key(of container: CKContainer) -> String { container.processKey }

    static func remember(_ operation: CKOperation, under key: String) {
        table.withLock { table in
            if table[key, default: []].contains(where: { $0 === operation }) { return }
            table[key, default: []].append(operation)
        }
    }

    static func forget(_ operationID: CKOperation.ID, under key: String) {
        table.withLock { table in
            table[key]?.removeAll { $0.operationID == operationID }
            if table[key]?.isEmpty == true { table[key] = nil }
        }
    }

    /// The operations of `key` still running, in the order they were added.
    static func running(under key: String) -> [CKOperation] {
        table.withLock { $0[key] ?? [] }
    }
}
