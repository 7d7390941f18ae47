import CloudKit
import StratusCloudKitTesting
import Foundation

/// One device of a notes app that syncs with `CKSyncEngine`, its delegate written as Apple
/// documents it (the acceptance SyncEngineCheck's `Device`, grown a log): notes by record name,
/// the last record the server sent for each, the serialization of the last `stateUpdate`, and
/// what the engine reported, in order. A failed save is answered as Apple's sample app does: a
/// conflict keeps this device's text on the server's record and queues it again, a missing zone
/// is queued again with the record, a record deleted meanwhile is created again, a save failed
/// only beside another (`batchRequestFailed`) goes again, a save refused for a full account
/// waits until the user made room; anything else (`permissionFailure`) is dropped. A zone the device has not seen on the server is queued for saving with its first
/// note (private database only: a participant cannot make zones).
actor NoteDevice: CKSyncEngineDelegate {
    /// A save the server refused, as `sentRecordZoneChanges` reported it.
    struct FailedSave: Equatable, Sendable {
        let name: String
        let code: CKError.Code
        /// The text of the server's record a `serverRecordChanged` carried.
        let serverText: String?
    }

    /// How the delegate answers `nextRecordZoneChangeBatch`.
    static let recordType = "Note"

    let database: CKDatabase
    /// The zone a write goes to unless it names another.
    let zoneID: CKRecordZone.ID
    private let automaticallySync: Bool
    private let initialState: CKSyncEngine.State.Serialization?
    private var engineStorage: CKSyncEngine?

    private(set) var notes: [String: String] = [:]
    private(set) var noteZones: [String: CKRecordZone.ID] = [:]
    private(set) var serverRecords: [String: CKRecord] = [:]
    private(set) var knownZones: Set<CKRecordZone.ID> = []
    /// What the last `stateUpdate` said (the serialization the device was made with, before any).
    private(set) var stateSerialization: CKSyncEngine.State.Serialization?
    private(set) var batchStyle = BatchStyle.pendingChanges

    // The log of what the engine reported (``resetLog()`` starts it afresh).
    /// Every event, in order: its case name, zone events with the zone's name.
    private(set) var events: [String] = []
    /// The name of every Note record a `fetchedRecordZoneChanges` delivered, in order, repeats kept.
    private(set) var fetchedNames: [String] = []
    private(set) var accountChanges: [CKSyncEngine.Event.AccountChange.ChangeType] = []
    private(set) var deletedZoneIDs: [CKRecordZone.ID] = []
    /// The error of each `didFetchRecordZoneChanges` that had one.
    private(set) var zoneFetchErrors: [CKError.Code] = []
    private(set) var failedSaves: [FailedSave] = []
    private(set) var savedCount = 0
    /// The number of changes in each batch the delegate handed the engine.
    private(set) var batchSizes: [Int] = []
    private(set) var fetchReasons: [CKSyncEngine.SyncReason] = []
    /// How many times the engine asked `nextFetchChangesOptions` (since ``resetLog()``).
    private(set) var fetchOptionsAsked = 0
    /// The scope the delegate answers `nextFetchChangesOptions` with (`nil`: the one asked).
    private(set) var fetchScope: CKSyncEngine.FetchChangesOptions.Scope?
    /// Notes the server refused for a full account, kept until ``userMadeRoom()``.
    private(set) var waitingForRoom: Set<CKRecord.ID> = []
    private(set) var sendReasons: [CKSyncEngine.SyncReason] = []

    init(
        _ database: CKDatabase, zoneID: CKRecordZone.ID, state: CKSyncEngine.State.Serialization? = nil, automaticallySync: Bool = false
    ) {
        self.database = database
        self.zoneID = zoneID
        self.initialState = state
        self.stateSerialization = state
        self.automaticallySync = automaticallySync
    }

    /// The device's engine, made on first use (an automatic one starts syncing then).
    var engine: CKSyncEngine {
        if let engineStorage { return engineStorage }
        var configuration = CKSyncEngine.Configuration(database: database, stateSerialization: initialState, delegate: self)
        configuration.automaticallySync = automaticallySync
        let engine = CKSyncEngine(configuration)
        engineStorage = engine
        return engine
    }

    func start() { _ = engine }
    func fetch() async throws { try await engine.fetchChanges() }
    func send() async throws { try await engine.sendChanges() }

    /// The events without `stateUpdate`s.
    var milestones: [String] { events.filter { $0 != "stateUpdate" } }

    func zone(of name: String) -> CKRecordZone.ID? { noteZones[name] }

    func setBatchStyle(_ style: BatchStyle) { batchStyle = style }

    func setFetchScope(_ scope: CKSyncEngine.FetchChangesOptions.Scope?) { fetchScope = scope }

    /// The user freed space in iCloud (or bought more): the notes refused for quota go again.
    func userMadeRoom() {
        engine.state.add(pendingRecordZoneChanges: waitingForRoom.map { .saveRecord($0) })
        waitingForRoom = []
    }

    func resetLog() {
        events = []
        fetchedNames = []
        accountChanges = []
        deletedZoneIDs = []
        zoneFetchErrors = []
        failedSaves = []
        savedCount = 0
        batchSizes = []
        fetchOptionsAsked = 0
        fetchReasons = []
        sendReasons = []
    }

    // MARK: - Local edits

    func write(_ name: String, _ text: String, in zone: CKRecordZone.ID? = nil) {
        let zone = zone ?? zoneID
        notes[name] = text
        noteZones[name] = zone
        if database.databaseScope == .private, !knownZones.contains(zone) {
            engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zone))])
        }
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(CKRecord.ID(recordName: name, zoneID: zone))])
    }

    /// Knows a note without telling the engine (a note a relaunched app reads from its own
    /// store, whose change the restored state still holds pending).
    func remember(_ name: String, _ text: String, in zone: CKRecordZone.ID? = nil) {
        notes[name] = text
        noteZones[name] = zone ?? zoneID
    }

    func delete(_ name: String) {
        let zone = noteZones[name] ?? zoneID
        notes[name] = nil
        noteZones[name] = nil
        engine.state.add(pendingRecordZoneChanges: [.deleteRecord(CKRecord.ID(recordName: name, zoneID: zone))])
    }

    func deleteZone(_ zone: CKRecordZone.ID) {
        forgetNotes(in: zone)
        knownZones.remove(zone)
        engine.state.add(pendingDatabaseChanges: [.deleteZone(zone)])
    }

    // MARK: - CKSyncEngineDelegate

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        events.append(event.milestone)
        switch event {
        case .stateUpdate(let update):
            stateSerialization = update.stateSerialization
        case .accountChange(let change):
            accountChanges.append(change.changeType)
            if case .signIn = change.changeType { break }
            // Signed out or another account: this device's data was the previous account's.
            notes = [:]
            noteZones = [:]
            serverRecords = [:]
            knownZones = []
        case .fetchedDatabaseChanges(let changes):
            for deletion in changes.deletions {
                deletedZoneIDs.append(deletion.zoneID)
                knownZones.remove(deletion.zoneID)
                forgetNotes(in: deletion.zoneID)
            }
            for modification in changes.modifications { knownZones.insert(modification.zoneID) }
        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications where modification.record.recordType == Self.recordType {
                let record = modification.record
                let name = record.recordID.recordName
                notes[name] = record["text"] as? String
                noteZones[name] = record.recordID.zoneID
                serverRecords[name] = record
                fetchedNames.append(name)
            }
            for deletion in changes.deletions {
                notes[deletion.recordID.recordName] = nil
                noteZones[deletion.recordID.recordName] = nil
                serverRecords[deletion.recordID.recordName] = nil
            }
        case .sentDatabaseChanges(let sent):
            for zone in sent.savedZones { knownZones.insert(zone.zoneID) }
            for id in sent.deletedZoneIDs { knownZones.remove(id) }
        case .sentRecordZoneChanges(let sent):
            answer(sent, engine: syncEngine)
        case .willFetchChanges(let will):
            fetchReasons.append(will.context.reason)
        case .willSendChanges(let will):
            sendReasons.append(will.context.reason)
        case .didFetchRecordZoneChanges(let did):
            if let error = did.error { zoneFetchErrors.append(error.code) }
        case .willFetchRecordZoneChanges, .didFetchChanges, .didSendChanges:
            break
        }
    }

    /// Counts the engine's asks, and narrows a fetch to ``fetchScope`` when one is set.
    func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions {
        fetchOptionsAsked += 1
        var options = context.options
        if let fetchScope { options.scope = fetchScope }
        return options
    }

    func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        let notes = self.notes
        let serverRecords = self.serverRecords
        let batch = await batchStyle.batch(of: pending) { id in
            notes[id.recordName].map { Self.record(id, text: $0, server: serverRecords[id.recordName]) }
        }
        if let batch { batchSizes.append(batch.recordsToSave.count + batch.recordIDsToDelete.count) }
        return batch
    }

    // MARK: - Helpers

    /// Keeps what the server saved and answers each failed save (see the type's summary).
    private func answer(_ sent: CKSyncEngine.Event.SentRecordZoneChanges, engine: CKSyncEngine) {
        for record in sent.savedRecords { serverRecords[record.recordID.recordName] = record }
        savedCount += sent.savedRecords.count
        for id in sent.deletedRecordIDs { serverRecords[id.recordName] = nil }
        var zones: [CKSyncEngine.PendingDatabaseChange] = []
        var retry: [CKSyncEngine.PendingRecordZoneChange] = []
        for failure in sent.failedRecordSaves {
            let id = failure.record.recordID
            let name = id.recordName
            let serverText = failure.error.serverRecord?["text"] as? String
            failedSaves.append(FailedSave(name: name, code: failure.error.code, serverText: serverText))
            switch failure.error.code {
            case .serverRecordChanged:
                // Keep our text, on the server's version of the record.
                if let server = failure.error.serverRecord { serverRecords[name] = server }
                retry.append(.saveRecord(id))
            case .zoneNotFound:
                // The zone went (another device deleted it): save it again, then the record, afresh.
                serverRecords[name] = nil
                knownZones.remove(id.zoneID)
                if database.databaseScope == .private { zones.append(.saveZone(CKRecordZone(zoneID: id.zoneID))) }
                retry.append(.saveRecord(id))
            case .unknownItem:
                // The record was deleted meanwhile: ours is the data we keep, so create it again.
                serverRecords[name] = nil
                retry.append(.saveRecord(id))
            case .batchRequestFailed:
                retry.append(.saveRecord(id))
            case .quotaExceeded:
                // The account is full: the note stays here, sent again once the user made room.
                waitingForRoom.insert(id)
            default:
                break
            }
        }
        engine.state.add(pendingDatabaseChanges: zones)
        engine.state.add(pendingRecordZoneChanges: retry)
    }

    private func forgetNotes(in zone: CKRecordZone.ID) {
        for (name, noteZone) in noteZones where noteZone == zone {
            notes[name] = nil
            noteZones[name] = nil
            serverRecords[name] = nil
        }
    }

    /// The record to send for a note: a copy of the server's last record, else a new one.
    private static func record(_ id: CKRecord.ID, text: String, server: CKRecord?) -> CKRecord {
        let record = (server?.copy() as? CKRecord) ?? CKRecord(recordType: recordType, recordID: id)
        record["text"] = text
        return record
    }
}
