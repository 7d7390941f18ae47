import Foundation
import StratusCloudKit
import StratusModel
import Synchronization

/// Running CloudKit's operations as an app does — set the blocks, add the operation to a
/// database or container — and waiting for the result block; and the one lookup the device
/// makes outside its engines: `CKFetchRecordsOperation`, whose records come with their assets.
extension SimulatedDevice {
    /// Runs `operation` in `database`; `configure` sets its blocks, which report to the outcome.
    /// Throws the operation's failure, else the first per-item failure it noted.
    func run<Operation: CKDatabaseOperation>(
        _ operation: Operation, in database: CKDatabase, _ configure: (Operation, OperationOutcome) -> Void
    ) async throws {
        try await run(operation, configure) { database.add($0) }
    }

    /// Runs a container operation (accepting shares, say) in `container`.
    func run<Operation: CKOperation>(
        _ operation: Operation, in container: CKContainer, _ configure: (Operation, OperationOutcome) -> Void
    ) async throws {
        try await run(operation, configure) { container.add($0) }
    }

    /// Sets the blocks, adds the operation where `add` says, and waits for its result block.
    private func run<Operation: CKOperation>(
        _ operation: Operation, _ configure: (Operation, OperationOutcome) -> Void, add: (Operation) -> Void
    ) async throws {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            configure(operation, OperationOutcome(done))
            add(operation)
        }
    }

    /// The server's records of these IDs in `scope`'s database, each found or with its own
    /// error (`unknownItem`: deleted; `zoneNotFound`: its zone is gone), fetched with a
    /// `CKFetchRecordsOperation`, which downloads their assets; the device keeps those files.
    func fetchFromServer(_ ids: [CKRecord.ID], scope: DatabaseScope) async throws -> [CKRecord.ID: Result<CKRecord, CKError>] {
        let container = try requireContainer()
        let database = scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
        let found = Mutex<[CKRecord.ID: Result<CKRecord, CKError>]>([:])
        let fetch = CKFetchRecordsOperation(recordIDs: ids)
        try await run(fetch, in: database) { operation, finished in
            operation.perRecordResultBlock = { id, result in
                found.withLock { $0[id] = result.mapError(CKError.wrapping) }
            }
            operation.fetchRecordsResultBlock = { result in finished.end(result) }
        }
        let results = found.withLock { $0 }
        try keepDownloadedAssets(of: results.values.compactMap { try? $0.get() })
        return results
    }
}

/// What an operation's blocks report, handed to the task waiting for it: per-item failures as
/// they come, then the operation's result, which ends the wait.
final class OperationOutcome: Sendable {
    private struct Progress {
        var firstFailure: (any Error)?
        var waiting: CheckedContinuation<Void, any Error>?
    }

    private let progress: Mutex<Progress>

    init(_ waiting: CheckedContinuation<Void, any Error>) {
        progress = Mutex(Progress(waiting: waiting))
    }

    /// An item failed; the wait ends with the first such failure if the operation succeeds.
    func note(_ error: any Error) {
        progress.withLock { if $0.firstFailure == nil { $0.firstFailure = error } }
    }

    /// The operation's result block ran: the wait ends (once).
    func end(_ result: Result<Void, any Error>) {
        let (waiting, failure) = progress.withLock { progress in
            defer { progress.waiting = nil }
            return (progress.waiting, progress.firstFailure)
        }
        switch result {
        case .failure(let error): waiting?.resume(throwing: error)
        case .success: if let failure { waiting?.resume(throwing: failure) } else { waiting?.resume() }
        }
    }
}
