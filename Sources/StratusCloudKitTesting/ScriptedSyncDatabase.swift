import Foundation
import StratusCloudKit
import Synchronization

/// A database in memory that a ``CKSyncEngine`` syncs with in tests, in place of a server (its
/// `Configuration.syncDatabase`) — pointfreeco's `MockCloudDatabase` beside sqlite-data's
/// `CloudDatabase` is the model. By default it behaves as CloudKit does: zones, records with
/// change tags (a stale tag is a `serverRecordChanged` carrying the server's record, a save into
/// a missing zone a `zoneNotFound`, an atomic zone all or nothing), a database feed and zone
/// feeds paged by tokens that can expire, the signed-in user, the subscriptions saved, pushes.
/// A test scripts failures on top (``failNext(_:with:times:)``, ``failRecord(named:with:times:)``,
/// ``failZone(named:with:times:)``), reads what the engine asked (``requests``) and acts as
/// another device (``serverSave(_:)``, ``serverDeleteZone(_:reason:)``, ``push()``).
package final class ScriptedSyncDatabase: SyncDatabase {
    /// A call the engine makes.
    package enum Call: String, Hashable, Sendable, CaseIterable {
        case userRecordID, saveSubscription, databaseChanges, recordZoneChanges, modifyRecords, modifyRecordZones
    }

    /// A call as the engine made it: record and zone names, tokens as their text.
    package enum Request: Hashable, Sendable, CustomStringConvertible {
        case userRecordID
        case saveSubscription(CKSubscription.ID)
        case databaseChanges(token: String?)
        case recordZoneChanges(zone: String, token: String?)
        case modifyRecords(saving: [String], deleting: [String], atomically: Bool)
        case modifyRecordZones(saving: [String], deleting: [String])

        package var call: Call {
            switch self {
            case .userRecordID: .userRecordID
            case .saveSubscription: .saveSubscription
            case .databaseChanges: .databaseChanges
            case .recordZoneChanges: .recordZoneChanges
            case .modifyRecords: .modifyRecords
            case .modifyRecordZones: .modifyRecordZones
            }
        }

        package var description: String {
            switch self {
            case .userRecordID: "userRecordID"
            case .saveSubscription(let id): "saveSubscription(\(id))"
            case .databaseChanges(let token): "databaseChanges(\(token ?? "nil"))"
            case .recordZoneChanges(let zone, let token): "recordZoneChanges(\(zone), \(token ?? "nil"))"
            case .modifyRecords(let saving, let deleting, let atomically):
                "modifyRecords(saving: \(saving), deleting: \(deleting)\(atomically ? ", atomically" : ""))"
            case .modifyRecordZones(let saving, let deleting): "modifyRecordZones(saving: \(saving), deleting: \(deleting))"
            }
        }
    }

    package let databaseScope: CKDatabase.Scope
    /// A database of a container connected to no server, for `CKSyncEngine.Configuration(database:…)`
    /// (the engine calls this fake instead).
    package let database: CKDatabase
    private let store: Mutex<ScriptedStore>

    /// An empty database of `scope` (its default zone only) with `user` signed in (`nil`: nobody).
    package init(scope: CKDatabase.Scope = .private, user: String? = "_alice") {
        databaseScope = scope
        database = CKContainer(unconnectedIdentifier: "iCloud.org.stratus.scripted").database(with: scope)
        store = Mutex(ScriptedStore(user: user))
    }

    // MARK: - The account

    /// Who is signed in (`nil`: ``userRecordID()`` throws `notAuthenticated`, as for a refused token).
    package var user: String? {
        get { store.withLock { $0.user } }
        set { store.withLock { $0.user = newValue } }
    }

    /// Whether the device holds an account at all (`false`: signed out).
    package var holdsAccount: Bool {
        get { store.withLock { $0.holdsAccount } }
        set { store.withLock { $0.holdsAccount = newValue } }
    }

    /// The user signs out of the device: nobody, and no account held.
    package func signOut() {
        store.withLock { store in
            store.user = nil
            store.holdsAccount = false
        }
    }

    // MARK: - The script

    /// The next `times` calls of `call` throw `error`, before they touch anything (they are
    /// recorded in ``requests`` all the same).
    package func failNext(_ call: Call, with error: CKError, times: Int = 1) {
        store.withLock { $0.failures[call, default: []].append(contentsOf: repeatElement(error, count: max(times, 0))) }
    }

    /// The next `times` saves or deletes of a record of this name fail with `error`, item by item
    /// (in an atomic zone the zone's other items then fail with `batchRequestFailed`).
    package func failRecord(named name: String, with error: CKError, times: Int = 1) {
        store.withLock { $0.recordFailures[name, default: []].append(contentsOf: repeatElement(error, count: max(times, 0))) }
    }

    /// The next `times` saves or deletes of a zone of this name fail with `error`, zone by zone.
    package func failZone(named name: String, with error: CKError, times: Int = 1) {
        store.withLock { $0.zoneFailures[name, default: []].append(contentsOf: repeatElement(error, count: max(times, 0))) }
    }

    /// Zones a database feed page holds at most (`nil`: all of them).
    package var databaseResultsLimit: Int? {
        get { store.withLock { $0.databaseResultsLimit } }
        set { store.withLock { $0.databaseResultsLimit = newValue } }
    }

    /// Every database token issued so far expires (`changeTokenExpired`).
    package func expireDatabaseToken() {
        store.withLock { $0.databaseGeneration += 1 }
    }

    /// Every token of the zone issued so far expires.
    package func expireToken(of zoneID: CKRecordZone.ID) {
        store.withLock { $0.expireZoneTokens(zoneID) }
    }

    /// Every token issued so far expires: the database's and every zone's.
    package func expireTokens() {
        store.withLock { store in
            store.databaseGeneration += 1
            for id in Array(store.zones.keys) { store.expireZoneTokens(id) }
        }
    }

    // MARK: - What the engine asked

    /// Every call, in order.
    package var requests: [Request] { store.withLock { $0.requests } }

    /// The calls of one kind, in order.
    package func requests(of call: Call) -> [Request] { requests.filter { $0.call == call } }

    /// Forgets the calls recorded so far.
    package func clearRequests() {
        store.withLock { $0.requests = [] }
    }

    /// The IDs of the subscriptions saved.
    package var subscriptionIDs: [CKSubscription.ID] { store.withLock { $0.subscriptions.keys.sorted() } }

    // MARK: - Another device

    /// Saves a record as another device would (whatever its change tag), making its zone if
    /// needed; answers the record as stored, with its new tag.
    @discardableResult
    package func serverSave(_ record: CKRecord) -> CKRecord {
        store.withLock { $0.store(record, createZone: true) }
    }

    /// Makes a zone, as another device would.
    package func serverSaveZone(_ zoneID: CKRecordZone.ID) {
        store.withLock { $0.createZone(zoneID) }
    }

    /// Deletes a record, as another device would.
    package func serverDelete(_ recordID: CKRecord.ID) {
        store.withLock { $0.remove(recordID) }
    }

    /// Deletes a zone and its records — by the app elsewhere (`.deleted`), by the user managing
    /// their storage (`.purged`) or in an encrypted-data reset — as the database feed then says.
    package func serverDeleteZone(_ zoneID: CKRecordZone.ID, reason: CKDatabase.DatabaseChange.Deletion.Reason = .deleted) {
        store.withLock { $0.deleteZone(zoneID, reason: reason) }
    }

    /// A copy of the record of this name the database holds.
    package func record(named name: String, in zoneID: CKRecordZone.ID = .default) -> CKRecord? {
        store.withLock { store -> CKRecord? in
            guard let entry = store.zones[zoneID]?.records[name] else { return nil }
            return (entry.record.copy() as? CKRecord) ?? entry.record
        }
    }

    /// Copies of the records of a zone, by name.
    package func records(in zoneID: CKRecordZone.ID) -> [CKRecord] {
        store.withLock { store -> [CKRecord] in
            let entries = store.zones[zoneID]?.records.sorted { $0.key < $1.key } ?? []
            return entries.map { ($0.value.record.copy() as? CKRecord) ?? $0.value.record }
        }
    }

    /// Whether the zone exists.
    package func hasZone(_ zoneID: CKRecordZone.ID) -> Bool { store.withLock { $0.zones[zoneID] != nil } }

    /// Every zone listener of ``listenForPushes(clock:while:pushed:)`` hears a push once (one
    /// not listening yet misses it: ``waitForListeners(_:)`` first).
    package func push() {
        let listeners = store.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield(()) }
    }

    /// How many calls of ``listenForPushes(clock:while:pushed:)`` listen now.
    package var listenerCount: Int { store.withLock { $0.listeners.count } }

    /// Returns once at least `count` calls of ``listenForPushes(clock:while:pushed:)`` listen.
    package func waitForListeners(_ count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = store.withLock { store -> Bool in
                if store.listeners.count >= count { return true }
                store.listenerWatchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    // MARK: - SyncDatabase

    /// Records `request` and throws the failure scripted for its call, if any.
    private func begin(_ request: Request) throws {
        if let failure = store.withLock({ $0.begin(request) }) { throw failure }
    }

    package func userRecordID() async throws -> CKRecord.ID {
        try begin(.userRecordID)
        guard let user = store.withLock({ $0.user }) else { throw CKError(.notAuthenticated, "no account is signed in") }
        return CKRecord.ID(recordName: user)
    }

    package func save(_ subscription: CKSubscription) async throws -> CKSubscription {
        try begin(.saveSubscription(subscription.subscriptionID))
        store.withLock { $0.subscriptions[subscription.subscriptionID] = subscription }
        return subscription
    }

    package func databaseChanges(since changeToken: CKServerChangeToken?) async throws -> SyncDatabaseChanges {
        let token = changeToken?.value
        try begin(.databaseChanges(token: token))
        return try store.withLock { store throws -> SyncDatabaseChanges in try store.databaseChanges(since: token) }
    }

    package func recordZoneChanges(inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, resultsLimit: Int?) async throws
        -> SyncZoneChanges
    {
        let token = changeToken?.value
        try begin(.recordZoneChanges(zone: zoneID.zoneName, token: token))
        return try store.withLock { store throws -> SyncZoneChanges in try store.zoneChanges(zoneID, since: token, resultsLimit: resultsLimit) }
    }

    package func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID], savePolicy: CKModifyRecordsOperation.RecordSavePolicy,
        atomically: Bool
    ) async throws -> SyncRecordResults {
        try begin(.modifyRecords(saving: recordsToSave.map(\.recordID.recordName), deleting: recordIDsToDelete.map(\.recordName), atomically: atomically))
        return store.withLock { store -> SyncRecordResults in
            store.modify(saving: recordsToSave, deleting: recordIDsToDelete, policy: savePolicy, atomically: atomically)
        }
    }

    package func modifyRecordZones(saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]) async throws
        -> SyncZoneResults
    {
        try begin(.modifyRecordZones(saving: recordZonesToSave.map(\.zoneID.zoneName), deleting: recordZoneIDsToDelete.map(\.zoneName)))
        return store.withLock { store -> SyncZoneResults in
            var saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>] = [:]
            var deleteResults: [CKRecordZone.ID: Result<Void, any Error>] = [:]
            for zone in recordZonesToSave {
                if let refused = ScriptedStore.take(&store.zoneFailures, zone.zoneID.zoneName) {
                    saveResults[zone.zoneID] = .failure(refused)
                } else {
                    store.createZone(zone.zoneID)
                    saveResults[zone.zoneID] = .success(CKRecordZone(zoneID: zone.zoneID))
                }
            }
            for id in recordZoneIDsToDelete {
                if let refused = ScriptedStore.take(&store.zoneFailures, id.zoneName) {
                    deleteResults[id] = .failure(refused)
                } else {
                    store.deleteZone(id, reason: .deleted)
                    deleteResults[id] = .success(())
                }
            }
            return (saveResults, deleteResults)
        }
    }

    /// Listens until `listening()` no longer holds (checked at each push) or the task is
    /// cancelled, calling `pushed()` for each ``push()``. Never waits on `clock`: it has no
    /// network to lose.
    package func listenForPushes(clock: SyncClock, while listening: @escaping @Sendable () -> Bool, pushed: @escaping @Sendable () -> Void) async {
        guard listening() else { return }
        let (pushes, continuation) = AsyncStream.makeStream(of: Void.self)
        let (id, watchers) = store.withLock { store -> (Int, [CheckedContinuation<Void, Never>]) in
            let id = store.nextListener
            store.nextListener += 1
            store.listeners[id] = continuation
            let count = store.listeners.count
            let ready = store.listenerWatchers.filter { $0.count <= count }.map(\.continuation)
            store.listenerWatchers.removeAll { $0.count <= count }
            return (id, ready)
        }
        for watcher in watchers { watcher.resume() }
        defer { _ = store.withLock { $0.listeners.removeValue(forKey: id) } }
        for await _ in pushes {
            guard listening() else { return }
            pushed()
        }
    }
}

extension CKError {
    /// An error as the server sends it, with the seconds to wait before retrying when given
    /// (`CKErrorRetryAfterKey`, what ``CKError/retryAfterSeconds`` reads).
    package static func scripted(_ code: Code, retryAfter: Double? = nil, _ message: String? = nil) -> CKError {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message ?? "scripted \(code)"]
        if let retryAfter { info[CKErrorRetryAfterKey] = retryAfter }
        return CKError(code, userInfo: info)
    }
}
