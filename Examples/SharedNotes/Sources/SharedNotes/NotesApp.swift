import Foundation
#if os(Linux)
import CloudKit
#else
import StratusCloudKit
#endif

/// One device's notes app: its own store on disk and a `CKSyncEngine` for each database — the
/// private one for the user's own folders, the shared one for folders others shared with them.
/// The app is the engines' delegate, as Apple's sample app is.
///
/// Conflicts resolve by modification date, the same way on every device: whichever edit was
/// made last wins, whether the other arrives in a fetch or as a `serverRecordChanged` refusal.
public actor NotesApp: CKSyncEngineDelegate {
    public let container: CKContainer
    private let storeURL: URL
    private let automaticallySync: Bool
    private var store: NoteStore
    private var engines: [CKDatabase.Scope: CKSyncEngine] = [:]

    /// The app as it launches: its store read from `storeURL` (created on first save).
    /// `automaticallySync: false` syncs only when ``sync()`` is called (tests); apps leave it on.
    public init(container: CKContainer, storeURL: URL, automaticallySync: Bool = true) throws {
        self.container = container
        self.storeURL = storeURL
        self.automaticallySync = automaticallySync
        self.store = try NoteStore.load(from: storeURL)
    }

    // MARK: - What the user does

    /// Writes a note (a new one or an edit), in one of the user's folders or a shared one.
    public func write(_ text: String, id: String, folder: String, owner: String = CKCurrentUserDefaultName, at date: Date = Date()) {
        let note = Note(id: id, folder: folder, owner: owner, text: text, modified: date)
        let key = NoteKey(note)
        store.notes[key] = note
        store.unsent.insert(key)
        let engine = engine(note.isShared ? .shared : .private)
        // A folder of the user's own is a zone: saved before its first note.
        if !note.isShared, store.folders.insert(folder).inserted {
            engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: note.zoneID))])
        }
        persist()
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(note.recordID)])
    }

    public func delete(id: String, folder: String, owner: String = CKCurrentUserDefaultName) {
        let key = NoteKey(owner: owner, folder: folder, id: id)
        guard store.notes.removeValue(forKey: key) != nil else { return }
        store.unsent.insert(key)
        persist()
        engine(owner == CKCurrentUserDefaultName ? .private : .shared).state.add(pendingRecordZoneChanges: [.deleteRecord(recordID(key))])
    }

    /// The notes of a folder, by id.
    public func notes(in folder: String, owner: String = CKCurrentUserDefaultName) -> [String: String] {
        Dictionary(store.notes.values.filter { $0.folder == folder && $0.owner == owner }.map { ($0.id, $0.text) }, uniquingKeysWith: { $1 })
    }

    /// A folder someone shared with this user.
    public struct SharedFolder: Hashable, Sendable {
        public var folder: String
        public var owner: String
    }

    /// Every folder shared with this user that holds notes here.
    public func sharedFolders() -> Set<SharedFolder> {
        Set(store.notes.keys.filter { $0.owner != CKCurrentUserDefaultName }.map { SharedFolder(folder: $0.folder, owner: $0.owner) })
    }

    /// Sends what is unsent, then fetches, in both databases (what an automatic engine also
    /// does on its own).
    public func sync() async throws {
        for scope in [CKDatabase.Scope.private, .shared] {
            let engine = engine(scope)
            // An edit the server has not acknowledged is always pending: never stranded.
            let pending = Set(engine.state.pendingRecordZoneChanges.map(\.recordID))
            let missing = store.unsent.filter { ($0.owner == CKCurrentUserDefaultName) == (scope == .private) && !pending.contains(recordID($0)) }
            engine.state.add(pendingRecordZoneChanges: missing.sorted().map(pendingChange))
            try await send(engine)
            try await engine.fetchChanges()
        }
    }

    /// Sends until nothing the delegate queued again is left: a conflict or a missing zone is
    /// answered in `sentRecordZoneChanges` (the later edit queued again, the zone saved first),
    /// and the send that reported it throws `partialFailure` for it.
    private func send(_ engine: CKSyncEngine) async throws {
        for attempt in 1...3 {
            do {
                return try await engine.sendChanges()
            } catch let error as CKError where error.code == .partialFailure && attempt < 3 {
                continue
            }
        }
    }

    // MARK: - Sharing a folder

    /// Shares one of the user's folders (a zone-wide share) with `email`, who may edit it;
    /// answers the URL to send them. The folder must be on the server (synced) first.
    public func share(folder: String, with email: String) async throws -> URL {
        let share = CKShare(recordZoneID: CKRecordZone.ID(zoneName: folder))
        share[CKShare.SystemFieldKey.title] = folder
        share.publicPermission = .none
        let participant = try await container.shareParticipant(forEmailAddress: email)
        participant.permission = .readWrite
        share.addParticipant(participant)
        let (saved, _) = try await container.privateCloudDatabase.modifyRecords(saving: [share], deleting: [])
        guard let result = saved[share.recordID] else { throw CKError(.internalError) }
        guard let url = (try result.get() as? CKShare)?.url else { throw CKError(.internalError) }
        store.sharedFolders.insert(folder)
        persist()
        return url
    }

    /// Accepts a share someone sent, and fetches its folder.
    public func accept(_ url: URL) async throws {
        let metadata = try await container.shareMetadata(for: url)
        _ = try await container.accept(metadata)
        try await engine(.shared).fetchChanges()
    }

    /// Stops sharing a folder: its participants lose it on their next fetch.
    public func stopSharing(folder: String) async throws {
        let shareID = CKRecord.ID(recordName: CKRecordNameZoneWideShare, zoneID: CKRecordZone.ID(zoneName: folder))
        _ = try await container.privateCloudDatabase.deleteRecord(withID: shareID)
        store.sharedFolders.remove(folder)
        persist()
    }

    // MARK: - CKSyncEngineDelegate

    public func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        let scope = syncEngine.database.databaseScope
        switch event {
        case .stateUpdate(let update):
            if scope == .shared { store.sharedState = update.stateSerialization } else { store.privateState = update.stateSerialization }
        case .accountChange(let change):
            if case .signIn = change.changeType { break }
            // Signed out, or another user: this device's notes were the previous user's.
            store = NoteStore()
        case .fetchedDatabaseChanges(let changes):
            for modification in changes.modifications where scope == .private { store.folders.insert(modification.zoneID.zoneName) }
            for deletion in changes.deletions {
                store.forget(folder: deletion.zoneID.zoneName, owner: owner(of: deletion.zoneID, in: scope))
            }
        case .fetchedRecordZoneChanges(let changes):
            for modification in changes.modifications { received(modification.record, in: scope) }
            for deletion in changes.deletions {
                let key = key(deletion.recordID, in: scope)
                store.systemFields[key] = nil
                // A note deleted elsewhere goes, unless this device edited it since: then it is
                // created again, as a new record.
                if !store.unsent.contains(key) || store.notes[key] == nil { store.notes[key] = nil }
            }
        case .sentRecordZoneChanges(let sent):
            sentRecords(sent, engine: syncEngine)
        default:
            break
        }
        persist()
    }

    public func nextRecordZoneChangeBatch(
        _ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let scope = syncEngine.database.databaseScope
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        var toSave: [CKRecord.ID: CKRecord] = [:]
        for case .saveRecord(let id) in pending {
            if let note = store.notes[key(id, in: scope)] { toSave[id] = store.record(for: note) }
        }
        let records = toSave
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { records[$0] }
    }

    // MARK: - Answers

    /// A note the server sent: taken, unless this device has a later edit of it not yet sent.
    private func received(_ record: CKRecord, in scope: CKDatabase.Scope) {
        guard var incoming = Note(record) else { return }
        incoming.owner = owner(of: record.recordID.zoneID, in: scope)
        let key = NoteKey(incoming)
        store.remember(record, as: key)
        if store.unsent.contains(key), let local = store.notes[key], local.modified > incoming.modified { return }
        store.notes[key] = incoming
        store.unsent.remove(key)
    }

    private func sentRecords(_ sent: CKSyncEngine.Event.SentRecordZoneChanges, engine: CKSyncEngine) {
        let scope = engine.database.databaseScope
        for record in sent.savedRecords {
            let key = key(record.recordID, in: scope)
            store.remember(record, as: key)
            // Edited again while it was on its way: still unsent (and still pending).
            if let note = store.notes[key], note.modified == record["modified"] as? Date { store.unsent.remove(key) }
        }
        for id in sent.deletedRecordIDs {
            let key = key(id, in: scope)
            store.systemFields[key] = nil
            if store.notes[key] == nil { store.unsent.remove(key) }
        }
        var retry: [CKSyncEngine.PendingRecordZoneChange] = []
        var zones: [CKSyncEngine.PendingDatabaseChange] = []
        for failure in sent.failedRecordSaves {
            let id = failure.record.recordID
            let key = key(id, in: scope)
            switch failure.error.code {
            case .serverRecordChanged:
                // Another device saved first: the later edit wins, on the server's version.
                if let server = failure.error.serverRecord { received(server, in: scope) }
                if store.unsent.contains(key) { retry.append(.saveRecord(id)) }
            case .zoneNotFound:
                // The folder went (deleted on another device): saved again, with the note.
                store.systemFields[key] = nil
                if scope == .private { zones.append(.saveZone(CKRecordZone(zoneID: id.zoneID))) }
                retry.append(.saveRecord(id))
            case .unknownItem:
                // Deleted elsewhere meanwhile: this device's note is the data kept, created again.
                store.systemFields[key] = nil
                retry.append(.saveRecord(id))
            case .permissionFailure:
                // Read-only for this user: the edit cannot be made; the server's version returns on the next fetch.
                store.unsent.remove(key)
                store.systemFields[key] = nil
            default:
                // Kept unsent (a full account, say): the next sync adds it again.
                break
            }
        }
        for (id, error) in sent.failedRecordDeletes where error.code == .unknownItem {
            store.unsent.remove(key(id, in: scope))
        }
        engine.state.add(pendingDatabaseChanges: zones)
        engine.state.add(pendingRecordZoneChanges: retry)
    }

    // MARK: - Plumbing

    /// The engine of a database, made on first use from its saved state.
    private func engine(_ scope: CKDatabase.Scope) -> CKSyncEngine {
        if let engine = engines[scope] { return engine }
        let database = scope == .shared ? container.sharedCloudDatabase : container.privateCloudDatabase
        var configuration = CKSyncEngine.Configuration(
            database: database, stateSerialization: scope == .shared ? store.sharedState : store.privateState, delegate: self
        )
        configuration.automaticallySync = automaticallySync
        let engine = CKSyncEngine(configuration)
        engines[scope] = engine
        return engine
    }

    /// A zone's owner as the store names it: the user's own folders under the default owner name.
    private func owner(of zoneID: CKRecordZone.ID, in scope: CKDatabase.Scope) -> String {
        scope == .private ? CKCurrentUserDefaultName : zoneID.ownerName
    }

    private func key(_ id: CKRecord.ID, in scope: CKDatabase.Scope) -> NoteKey {
        NoteKey(owner: owner(of: id.zoneID, in: scope), folder: id.zoneID.zoneName, id: id.recordName)
    }

    private func recordID(_ key: NoteKey) -> CKRecord.ID {
        CKRecord.ID(recordName: key.id, zoneID: CKRecordZone.ID(zoneName: key.folder, ownerName: key.owner))
    }

    private func pendingChange(_ key: NoteKey) -> CKSyncEngine.PendingRecordZoneChange {
        store.notes[key] == nil ? .deleteRecord(recordID(key)) : .saveRecord(recordID(key))
    }

    private func persist() {
        // A store that cannot be written is the device's disk failing: nothing to sync about.
        try? store.save(to: storeURL)
    }
}
