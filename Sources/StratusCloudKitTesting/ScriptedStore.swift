import Foundation
import StratusCloudKit

/// What a ``ScriptedSyncDatabase`` holds, read and changed under its lock: zones and their
/// records, the change feeds, the account, and the test's script. Every change gets the next
/// number of one sequence; a change token is a feed's generation and the last number it covered
/// (a generation moved on — an expired token — refuses the tokens issued before).
struct ScriptedStore {
    typealias Reason = CKDatabase.DatabaseChange.Deletion.Reason

    struct Zone {
        /// Moves on when the zone's tokens expire (and when it is made again after a deletion).
        var generation: Int
        /// The number of the zone's last change (its creation, a record saved or deleted).
        var changedAt: Int
        var records: [String: Entry] = [:]
        var tombstones: [String: Tombstone] = [:]
    }

    struct Entry {
        var record: CKRecord
        var changedAt: Int
    }

    struct Tombstone {
        var recordType: CKRecord.RecordType
        var deletedAt: Int
    }

    struct Gone {
        var reason: Reason
        var deletedAt: Int
    }

    var user: String?
    var holdsAccount = true
    var sequence = 0
    var databaseGeneration = 0
    var zones: [CKRecordZone.ID: Zone] = [CKRecordZone.ID.default: Zone(generation: 0, changedAt: 0)]
    var goneZones: [CKRecordZone.ID: Gone] = [:]
    /// Each zone's last generation, kept across its deletion (a zone made again refuses old tokens).
    var zoneGenerations: [CKRecordZone.ID: Int] = [:]
    var nextTag = 0
    var databaseResultsLimit: Int?
    var subscriptions: [CKSubscription.ID: CKSubscription] = [:]

    // The script and the record of what was asked.
    var requests: [ScriptedSyncDatabase.Request] = []
    var failures: [ScriptedSyncDatabase.Call: [CKError]] = [:]
    var recordFailures: [String: [CKError]] = [:]
    var zoneFailures: [String: [CKError]] = [:]

    // Push listeners, and tests waiting for them.
    var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
    var nextListener = 0
    var listenerWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init(user: String?) {
        self.user = user
    }

    mutating func nextSequence() -> Int {
        sequence += 1
        return sequence
    }

    // MARK: - The script

    /// Records `request`; answers the failure scripted for its call, if any (consumed).
    mutating func begin(_ request: ScriptedSyncDatabase.Request) -> CKError? {
        requests.append(request)
        return Self.take(&failures, request.call)
    }

    static func take<Key: Hashable>(_ queues: inout [Key: [CKError]], _ key: Key) -> CKError? {
        guard var queue = queues[key], !queue.isEmpty else { return nil }
        let error = queue.removeFirst()
        queues[key] = queue.isEmpty ? nil : queue
        return error
    }

    // MARK: - Zones

    mutating func createZone(_ id: CKRecordZone.ID) {
        guard zones[id] == nil else { return }
        let generation = zoneGenerations[id].map { $0 + 1 } ?? 0
        zoneGenerations[id] = generation
        zones[id] = Zone(generation: generation, changedAt: nextSequence())
        goneZones[id] = nil
    }

    mutating func deleteZone(_ id: CKRecordZone.ID, reason: Reason) {
        guard id.zoneName != CKRecordZone.ID.defaultZoneName, zones.removeValue(forKey: id) != nil else { return }
        goneZones[id] = Gone(reason: reason, deletedAt: nextSequence())
    }

    mutating func expireZoneTokens(_ id: CKRecordZone.ID) {
        guard var zone = zones[id] else { return }
        zone.generation += 1
        zones[id] = zone
        zoneGenerations[id] = zone.generation
    }

    /// The error of a call about a zone that is not there: as CloudKit says why it went.
    func missingZone(_ id: CKRecordZone.ID) -> CKError {
        switch goneZones[id]?.reason {
        case .purged?:
            return CKError(.userDeletedZone, "the user deleted the zone \(id.zoneName) from their iCloud storage")
        case .encryptedDataReset?:
            return CKError(.zoneNotFound, userInfo: [
                NSLocalizedDescriptionKey: "the zone \(id.zoneName) went in an encrypted-data reset", CKErrorUserDidResetEncryptedDataKey: true,
            ])
        case .deleted?, nil:
            return CKError(.zoneNotFound, "zone \(id.zoneName) does not exist")
        }
    }

    // MARK: - Records

    /// Stores a copy of `record` with a fresh change tag (making its zone when `createZone`);
    /// answers the stored record's copy.
    @discardableResult
    mutating func store(_ record: CKRecord, createZone: Bool = false) -> CKRecord {
        let zoneID = record.recordID.zoneID
        if createZone { self.createZone(zoneID) }
        nextTag += 1
        let saved = (record.copy() as? CKRecord) ?? record
        saved.recordChangeTag = "tag-\(nextTag)"
        let at = nextSequence()
        zones[zoneID]?.records[record.recordID.recordName] = Entry(record: saved, changedAt: at)
        zones[zoneID]?.tombstones[record.recordID.recordName] = nil
        zones[zoneID]?.changedAt = at
        return (saved.copy() as? CKRecord) ?? saved
    }

    mutating func remove(_ id: CKRecord.ID) {
        guard let entry = zones[id.zoneID]?.records.removeValue(forKey: id.recordName) else { return }
        let at = nextSequence()
        zones[id.zoneID]?.tombstones[id.recordName] = Tombstone(recordType: entry.record.recordType, deletedAt: at)
        zones[id.zoneID]?.changedAt = at
    }

    /// Why a save of `record` is refused (`nil`: it is taken): the script first, then a missing
    /// zone, then — for `ifServerRecordUnchanged` — a change tag other than the server's
    /// (`serverRecordChanged`, with the server's record) or a record deleted since (`unknownItem`).
    mutating func refusal(saving record: CKRecord, policy: CKModifyRecordsOperation.RecordSavePolicy) -> CKError? {
        let id = record.recordID
        if let scripted = Self.take(&recordFailures, id.recordName) { return scripted }
        guard let zone = zones[id.zoneID] else { return missingZone(id.zoneID) }
        guard policy == .ifServerRecordUnchanged else { return nil }
        let server = zone.records[id.recordName]?.record
        if let server, server.recordChangeTag != record.recordChangeTag {
            return CKError(.serverRecordChanged, userInfo: [
                NSLocalizedDescriptionKey: "record \(id.recordName) changed on the server (tag \(server.recordChangeTag ?? "-"))",
                CKRecordChangedErrorServerRecordKey: (server.copy() as? CKRecord) ?? server,
                CKRecordChangedErrorClientRecordKey: record,
            ])
        }
        if server == nil, record.recordChangeTag != nil {
            return CKError(.unknownItem, "record \(id.recordName) was deleted on the server")
        }
        return nil
    }

    /// Why a delete of `id` is refused (`nil`: it is taken; a record already gone is deleted).
    mutating func refusal(deleting id: CKRecord.ID) -> CKError? {
        if let scripted = Self.take(&recordFailures, id.recordName) { return scripted }
        return zones[id.zoneID] == nil ? missingZone(id.zoneID) : nil
    }

    /// A modify, zone by zone: an atomic zone (not the default zone) takes all of its changes or
    /// none — one refused fails the others with `batchRequestFailed`.
    mutating func modify(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID], policy: CKModifyRecordsOperation.RecordSavePolicy,
        atomically: Bool
    ) -> SyncRecordResults {
        var saveResults: [CKRecord.ID: Result<CKRecord, any Error>] = [:]
        var deleteResults: [CKRecord.ID: Result<Void, any Error>] = [:]
        var zoneOrder: [CKRecordZone.ID] = []
        for id in recordsToSave.map(\.recordID) + recordIDsToDelete where !zoneOrder.contains(id.zoneID) { zoneOrder.append(id.zoneID) }
        for zoneID in zoneOrder {
            let saves = recordsToSave.filter { $0.recordID.zoneID == zoneID }
            let deletes = recordIDsToDelete.filter { $0.zoneID == zoneID }
            var refusals: [CKRecord.ID: CKError] = [:]
            for record in saves { refusals[record.recordID] = refusal(saving: record, policy: policy) }
            for id in deletes { refusals[id] = refusal(deleting: id) }
            if atomically, zoneID.zoneName != CKRecordZone.ID.defaultZoneName, !refusals.isEmpty {
                let aborted = CKError(.batchRequestFailed, "another item of the atomic batch in \(zoneID.zoneName) failed")
                for record in saves { saveResults[record.recordID] = .failure(refusals[record.recordID] ?? aborted) }
                for id in deletes { deleteResults[id] = .failure(refusals[id] ?? aborted) }
                continue
            }
            for record in saves {
                if let refused = refusals[record.recordID] {
                    saveResults[record.recordID] = .failure(refused)
                } else {
                    saveResults[record.recordID] = .success(store(record))
                }
            }
            for id in deletes {
                if let refused = refusals[id] {
                    deleteResults[id] = .failure(refused)
                } else {
                    remove(id)
                    deleteResults[id] = .success(())
                }
            }
        }
        return (saveResults, deleteResults)
    }

    // MARK: - Feeds

    /// The generation and number a token names, when it is one of this store's.
    static func parse(_ token: String) -> (generation: Int, sequence: Int)? {
        let parts = token.split(separator: "/")
        guard parts.count >= 2, let generation = Int(parts[parts.count - 2]), let sequence = Int(parts[parts.count - 1]) else { return nil }
        return (generation, sequence)
    }

    /// One page of the database feed: zones changed and deleted since `token` (every zone but the
    /// default one for `nil`), at most ``databaseResultsLimit`` of them.
    func databaseChanges(since token: String?) throws -> SyncDatabaseChanges {
        var since = 0
        // Deletions before a fetch from no token began are never listed, on any of its pages
        // (the server's floor): the token carries it, `database/<floor>/<generation>/<sequence>`.
        var floor = sequence
        if let token {
            guard let parsed = Self.parse(token), parsed.generation == databaseGeneration else {
                throw CKError(.changeTokenExpired, "the database's change token expired")
            }
            since = parsed.sequence
            let parts = token.split(separator: "/")
            floor = parts.count == 4 ? Int(parts[1]) ?? 0 : 0
        }
        var changes: [(at: Int, zoneID: CKRecordZone.ID, gone: Reason?)] = []
        for (id, zone) in zones where id.zoneName != CKRecordZone.ID.defaultZoneName && zone.changedAt > since {
            changes.append((zone.changedAt, id, nil))
        }
        if token != nil {
            for (id, gone) in goneZones where gone.deletedAt > max(since, floor) { changes.append((gone.deletedAt, id, gone.reason)) }
        }
        changes.sort { $0.at < $1.at }
        let page = changes.prefix(max(databaseResultsLimit ?? Int.max, 1))
        let moreComing = changes.count > page.count
        let upTo = moreComing ? (page.last?.at ?? since) : sequence
        let modifications = page.filter { $0.gone == nil }.map { CKDatabase.DatabaseChange.Modification(zoneID: $0.zoneID) }
        let deletions = page.compactMap { change in change.gone.map { CKDatabase.DatabaseChange.Deletion(zoneID: change.zoneID, reason: $0) } }
        return (modifications, deletions, CKServerChangeToken("database/\(floor)/\(databaseGeneration)/\(upTo)"), moreComing)
    }

    /// One page of a zone's feed: records saved and deleted since `token` (every record for
    /// `nil`), at most `resultsLimit` of them, in the order they changed.
    func zoneChanges(_ zoneID: CKRecordZone.ID, since token: String?, resultsLimit: Int?) throws -> SyncZoneChanges {
        guard let zone = zones[zoneID] else { throw missingZone(zoneID) }
        var since = 0
        if let token {
            guard let parsed = Self.parse(token), parsed.generation == zone.generation else {
                throw CKError(.changeTokenExpired, "the change token of zone \(zoneID.zoneName) expired")
            }
            since = parsed.sequence
        }
        var changes: [(at: Int, name: String, deletedType: CKRecord.RecordType?)] = []
        for (name, entry) in zone.records where entry.changedAt > since { changes.append((entry.changedAt, name, nil)) }
        if token != nil {
            for (name, tombstone) in zone.tombstones where tombstone.deletedAt > since { changes.append((tombstone.deletedAt, name, tombstone.recordType)) }
        }
        changes.sort { $0.at < $1.at }
        let page = changes.prefix(max(resultsLimit ?? Int.max, 1))
        let moreComing = changes.count > page.count
        let upTo = moreComing ? (page.last?.at ?? since) : sequence
        var modifications: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>] = [:]
        var deletions: [CKDatabase.RecordZoneChange.Deletion] = []
        for change in page {
            let id = CKRecord.ID(recordName: change.name, zoneID: zoneID)
            if let recordType = change.deletedType {
                deletions.append(CKDatabase.RecordZoneChange.Deletion(recordID: id, recordType: recordType))
            } else if let record = zone.records[change.name]?.record {
                modifications[id] = .success(CKDatabase.RecordZoneChange.Modification(record: (record.copy() as? CKRecord) ?? record))
            }
        }
        let changeToken = CKServerChangeToken("\(zoneID.zoneName)/\(zone.generation)/\(upTo)")
        return (modifications, deletions, changeToken, moreComing)
    }
}
