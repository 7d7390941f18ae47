import Foundation
import StratusCloudKitTesting
import Synchronization

@testable import StratusCloudKit

/// The zone most engine tests sync.
let notesZone = CKRecordZone.ID(zoneName: "Notes")

/// A note as another device saves it.
func note(_ name: String, _ text: String = "text", in zoneID: CKRecordZone.ID = notesZone) -> CKRecord {
    let record = CKRecord(recordType: EngineHarness.recordType, recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
    record["text"] = text
    return record
}

/// A notes app around one engine, for tests with no server: the engine's delegate (it logs every
/// event, keeps the app's notes and hands them to the engine in batches), the scripted database
/// the engine syncs with (``fake``) and the clock it reads (``clock``, a held one). A test makes
/// its engine with `CKSyncEngine(harness.configuration())` and waits for what the engine did
/// with ``waitFor(_:count:)`` — a continuation, never real time.
final class EngineHarness: CKSyncEngineDelegate, Sendable {
    static let recordType = "Note"

    /// What the delegate saw and holds.
    struct Log: Sendable {
        var events: [CKSyncEngine.Event] = []
        /// Each event's case name (zone events with the zone's name), in order.
        var labels: [String] = []
        /// The app's notes: the last record the server sent for each, or the app's own.
        var records: [CKRecord.ID: CKRecord] = [:]
        /// The serialization of the last `stateUpdate`.
        var state: CKSyncEngine.State.Serialization?
        var batchSizes: [Int] = []
        var batchStyle = BatchStyle.pendingChanges
        /// The scope `nextFetchChangesOptions` answers with (`nil`: the one asked).
        var fetchScope: CKSyncEngine.FetchChangesOptions.Scope?
        /// What the app does once the next batch is built, before the delegate returns it.
        var duringNextBatch: (@Sendable (CKSyncEngine) -> Void)?
    }

    private struct Watcher {
        let id = UUID()
        let condition: @Sendable (Log) -> Bool
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct Stored {
        var log = Log()
        var watchers: [Watcher] = []
    }

    let fake: ScriptedSyncDatabase
    let clock: ManualSyncClock
    private let stored = Mutex(Stored())

    init(fake: ScriptedSyncDatabase = ScriptedSyncDatabase(), clock: ManualSyncClock = ManualSyncClock()) {
        self.fake = fake
        self.clock = clock
    }

    /// The configuration of an engine syncing with ``fake`` on ``clock``, this harness its delegate.
    func configuration(
        state: CKSyncEngine.State.Serialization? = nil, automaticallySync: Bool = false, resultsLimit: Int? = nil
    ) -> CKSyncEngine.Configuration {
        var configuration = CKSyncEngine.Configuration(database: fake.database, stateSerialization: state, delegate: self)
        configuration.automaticallySync = automaticallySync
        configuration.syncDatabase = fake
        configuration.simulation.clock = clock.clock
        configuration.simulation.resultsLimit = resultsLimit
        return configuration
    }

    // MARK: - The app's edits

    /// Writes a note and adds its save to the engine's pending changes.
    @discardableResult
    func write(_ name: String, _ text: String = "text", in zoneID: CKRecordZone.ID = notesZone, on engine: CKSyncEngine) -> CKRecord.ID {
        let id = remember(name, text, in: zoneID)
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(id)])
        return id
    }

    /// Writes notes and adds their saves to the engine in one `add`.
    @discardableResult
    func write(_ names: [String], in zoneID: CKRecordZone.ID = notesZone, on engine: CKSyncEngine) -> [CKRecord.ID] {
        let ids = names.map { remember($0, "text of \($0)", in: zoneID) }
        engine.state.add(pendingRecordZoneChanges: ids.map { .saveRecord($0) })
        return ids
    }

    /// Knows a note without telling the engine (what a relaunched app reads from its own store).
    @discardableResult
    func remember(_ name: String, _ text: String, in zoneID: CKRecordZone.ID = notesZone) -> CKRecord.ID {
        let id = CKRecord.ID(recordName: name, zoneID: zoneID)
        stored.withLock { stored in
            let record = (stored.log.records[id]?.copy() as? CKRecord) ?? CKRecord(recordType: Self.recordType, recordID: id)
            record["text"] = text
            stored.log.records[id] = record
        }
        return id
    }

    /// Keeps `text` on the server's version of a note (how an app answers `serverRecordChanged`).
    func adopt(_ server: CKRecord, text: String) {
        let record = (server.copy() as? CKRecord) ?? server
        record["text"] = text
        stored.withLock { $0.log.records[record.recordID] = record }
    }

    func setBatchStyle(_ style: BatchStyle) { stored.withLock { $0.log.batchStyle = style } }

    /// Runs `edit` once, when the next batch is built and before the delegate returns it (an app
    /// editing while its delegate is suspended).
    func duringNextBatch(_ edit: @escaping @Sendable (CKSyncEngine) -> Void) { stored.withLock { $0.log.duringNextBatch = edit } }

    func setFetchScope(_ scope: CKSyncEngine.FetchChangesOptions.Scope?) { stored.withLock { $0.log.fetchScope = scope } }

    /// Forgets the events seen so far (the notes and the last state stay).
    func resetLog() {
        stored.withLock { stored in
            stored.log.events = []
            stored.log.labels = []
            stored.log.batchSizes = []
        }
    }

    // MARK: - Waiting

    /// Returns once `condition` holds of the log (checked now and after each event).
    func waitUntil(_ condition: @escaping @Sendable (Log) -> Bool) async {
        _ = await waitUntil(within: nil, condition)
    }

    /// Whether `condition` comes to hold of the log within `seconds` of real time — for what a
    /// faulty engine might never do: the test then fails rather than hangs (a passing test never
    /// waits the deadline out).
    func waitUntil(within seconds: Double?, _ condition: @escaping @Sendable (Log) -> Bool) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let watcher = Watcher(condition: condition, continuation: continuation)
            let ready = stored.withLock { stored -> Bool in
                if condition(stored.log) { return true }
                stored.watchers.append(watcher)
                return false
            }
            if ready { return continuation.resume(returning: true) }
            guard let seconds else { return }
            Task {
                try? await Task.sleep(for: .seconds(seconds))
                let expired = stored.withLock { stored -> Bool in
                    guard let index = stored.watchers.firstIndex(where: { $0.id == watcher.id }) else { return false }
                    stored.watchers.remove(at: index)
                    return true
                }
                if expired { continuation.resume(returning: false) }
            }
        }
    }

    /// Returns once the engine delivered at least `count` events labelled `label` (since the last ``resetLog()``).
    func waitFor(_ label: String, count: Int = 1) async {
        await waitUntil { log in log.labels.filter { $0 == label }.count >= count }
    }

    // MARK: - What the engine reported

    var log: Log { stored.withLock { $0.log } }
    var labels: [String] { log.labels }
    /// The events without `stateUpdate`s.
    var milestones: [String] { labels.filter { $0 != "stateUpdate" } }
    var lastState: CKSyncEngine.State.Serialization? { log.state }
    var batchSizes: [Int] { log.batchSizes }
    func text(of name: String, in zoneID: CKRecordZone.ID = notesZone) -> String? {
        log.records[CKRecord.ID(recordName: name, zoneID: zoneID)]?["text"] as? String
    }

    var accountChanges: [CKSyncEngine.Event.AccountChange.ChangeType] {
        log.events.compactMap { if case .accountChange(let change) = $0 { change.changeType } else { nil } }
    }

    private var sent: [CKSyncEngine.Event.SentRecordZoneChanges] {
        log.events.compactMap { if case .sentRecordZoneChanges(let sent) = $0 { sent } else { nil } }
    }

    /// The names of the records the server saved, in the order reported.
    var savedNames: [String] { sent.flatMap { $0.savedRecords.map(\.recordID.recordName) } }
    var deletedNames: [String] { sent.flatMap { $0.deletedRecordIDs.map(\.recordName) } }
    /// Each refused save's error, by record name.
    var failedSaves: [String: CKError] {
        var failures: [String: CKError] = [:]
        for failure in sent.flatMap(\.failedRecordSaves) { failures[failure.record.recordID.recordName] = failure.error }
        return failures
    }
    var failedSaveCodes: [String: CKError.Code] { failedSaves.mapValues(\.code) }

    var sentZones: [CKSyncEngine.Event.SentDatabaseChanges] {
        log.events.compactMap { if case .sentDatabaseChanges(let sent) = $0 { sent } else { nil } }
    }

    private var fetched: [CKSyncEngine.Event.FetchedRecordZoneChanges] {
        log.events.compactMap { if case .fetchedRecordZoneChanges(let page) = $0 { page } else { nil } }
    }

    /// The names of the records fetched, in the order delivered (repeats kept).
    var fetchedNames: [String] { fetched.flatMap { $0.modifications.map(\.record.recordID.recordName) } }
    var fetchedDeletions: [String] { fetched.flatMap { $0.deletions.map(\.recordID.recordName) } }

    /// The zones a fetch reported deleted, by name, with why.
    var zoneDeletions: [String: CKDatabase.DatabaseChange.Deletion.Reason] {
        var reasons: [String: CKDatabase.DatabaseChange.Deletion.Reason] = [:]
        for event in log.events {
            guard case .fetchedDatabaseChanges(let changes) = event else { continue }
            for deletion in changes.deletions { reasons[deletion.zoneID.zoneName] = deletion.reason }
        }
        return reasons
    }

    /// The error of each `didFetchRecordZoneChanges` that had one.
    var zoneFetchErrors: [CKError.Code] {
        var codes: [CKError.Code] = []
        for event in log.events {
            if case .didFetchRecordZoneChanges(let did) = event, let error = did.error { codes.append(error.code) }
        }
        return codes
    }

    var sendReasons: [CKSyncEngine.SyncReason] {
        log.events.compactMap { if case .willSendChanges(let will) = $0 { will.context.reason } else { nil } }
    }

    var fetchReasons: [CKSyncEngine.SyncReason] {
        log.events.compactMap { if case .willFetchChanges(let will) = $0 { will.context.reason } else { nil } }
    }

    // MARK: - CKSyncEngineDelegate

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        let label = event.milestone
        let due = stored.withLock { stored -> [CheckedContinuation<Bool, Never>] in
            stored.log.events.append(event)
            stored.log.labels.append(label)
            switch event {
            case .stateUpdate(let update):
                stored.log.state = update.stateSerialization
            case .sentRecordZoneChanges(let sent):
                // As Apple's sample keeps the server's system fields and its own values (an
                // edit made while the save was under way stays).
                for record in sent.savedRecords {
                    let kept = (record.copy() as? CKRecord) ?? record
                    if let text = stored.log.records[record.recordID]?["text"] as? String { kept["text"] = text }
                    stored.log.records[record.recordID] = kept
                }
            case .fetchedRecordZoneChanges(let page):
                for modification in page.modifications { stored.log.records[modification.record.recordID] = modification.record }
                for deletion in page.deletions { stored.log.records[deletion.recordID] = nil }
            default:
                break
            }
            let log = stored.log
            var due: [CheckedContinuation<Bool, Never>] = []
            stored.watchers.removeAll { watcher in
                guard watcher.condition(log) else { return false }
                due.append(watcher.continuation)
                return true
            }
            return due
        }
        for continuation in due { continuation.resume(returning: true) }
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        let (records, style) = stored.withLock { ($0.log.records, $0.log.batchStyle) }
        let batch = await style.batch(of: pending) { id in records[id]?.copy() as? CKRecord }
        if let batch {
            let size = batch.recordsToSave.count + batch.recordIDsToDelete.count
            stored.withLock { $0.log.batchSizes.append(size) }
        }
        let edit = stored.withLock { stored in
            defer { stored.log.duringNextBatch = nil }
            return stored.log.duringNextBatch
        }
        edit?(syncEngine)
        return batch
    }

    func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions {
        var options = context.options
        if let scope = stored.withLock({ $0.log.fetchScope }) { options.scope = scope }
        return options
    }
}
