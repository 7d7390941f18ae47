import Foundation
import Synchronization

extension CKSyncEngine {
    /// What the engine keeps between launches — change tokens, pending changes, the account —
    /// and the pending changes the app adds. The app persists ``Serialization`` from each
    /// `stateUpdate` event and hands it back to the next engine.
    public final class State: Sendable {
        private let stored: Mutex<Serialization>
        private let changeHandler = Mutex<(@Sendable () -> Void)?>(nil)

        /// Called after the app adds changes (the engine schedules a send).
        var onChange: (@Sendable () -> Void)? {
            get { changeHandler.withLock { $0 } }
            set { changeHandler.withLock { $0 = newValue } }
        }

        init(_ serialization: Serialization?) {
            self.stored = Mutex(serialization ?? Serialization())
        }

        /// Record changes waiting to be sent, in the order first added (a record's later change
        /// replaces its earlier one in that place: a parent queued first is sent first).
        public var pendingRecordZoneChanges: [PendingRecordZoneChange] { stored.withLock { $0.pendingRecordZoneChanges() } }

        /// Zone changes waiting to be sent (a zone's later change replaces its earlier one).
        public var pendingDatabaseChanges: [PendingDatabaseChange] { stored.withLock { $0.pendingDatabaseChanges() } }

        /// Set by the app when it has changes it has not added yet: the engine then asks for a batch
        /// anyway (an automatic engine sends soon, as after `add`).
        public var hasPendingUntrackedChanges: Bool {
            get { stored.withLock { $0.hasPendingUntrackedChanges } }
            set {
                stored.withLock { $0.hasPendingUntrackedChanges = newValue }
                onChange?()
            }
        }

        /// Zones the server said changed and whose changes are not fetched yet.
        public var zoneIDsWithUnfetchedServerChanges: [CKRecordZone.ID] { stored.withLock { $0.unfetchedZones.map(\.id) } }

        public func add(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            guard !changes.isEmpty else { return }
            stored.withLock { $0.add(changes) }
            onChange?()
        }

        /// Removes pending record changes; a `stateUpdate` follows, as for any change of the state.
        public func remove(pendingRecordZoneChanges changes: [PendingRecordZoneChange]) {
            guard !changes.isEmpty else { return }
            let removed = Set(changes.map(Serialization.PendingRecord.init))
            stored.withLock { stored in
                stored.records.removeAll { removed.contains($0) }
                stored.forgetHoldsOfRemoved()
            }
            onChange?()
        }

        public func add(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            guard !changes.isEmpty else { return }
            stored.withLock { $0.add(changes) }
            onChange?()
        }

        /// Removes pending zone changes; a `stateUpdate` follows, as for any change of the state.
        public func remove(pendingDatabaseChanges changes: [PendingDatabaseChange]) {
            guard !changes.isEmpty else { return }
            let removed = Set(changes.map(Serialization.PendingZone.init))
            stored.withLock { $0.zones.removeAll { removed.contains($0) } }
            onChange?()
        }

        /// Reads or changes the stored state under the lock (the engine's bookkeeping).
        func update<T>(_ body: (inout Serialization) -> T) -> T { stored.withLock { body(&$0) } }

        var serialization: Serialization { stored.withLock { $0 } }
    }
}

extension CKSyncEngine.State {
    /// The engine's state as the app stores it: opaque, `Codable`.
    public struct Serialization: Codable, Sendable, Hashable {
        /// A zone ID as stored.
        struct Zone: Codable, Sendable, Hashable {
            var name: String
            var owner: String

            init(_ id: CKRecordZone.ID) {
                name = id.zoneName
                owner = id.ownerName
            }

            var id: CKRecordZone.ID { CKRecordZone.ID(zoneName: name, ownerName: owner) }
            var key: String { "\(owner)/\(name)" }
        }

        /// A pending record change as stored; `sequence` tells a change added again while it was
        /// being sent from the one sent (equality ignores it).
        struct PendingRecord: Codable, Sendable, Hashable {
            var delete: Bool
            var recordName: String
            var zone: Zone
            var sequence = 0

            init(_ change: CKSyncEngine.PendingRecordZoneChange) {
                delete = if case .deleteRecord = change { true } else { false }
                recordName = change.recordID.recordName
                zone = Zone(change.recordID.zoneID)
            }

            static func == (lhs: Self, rhs: Self) -> Bool {
                lhs.delete == rhs.delete && lhs.recordName == rhs.recordName && lhs.zone == rhs.zone
            }

            func hash(into hasher: inout Hasher) {
                hasher.combine(delete)
                hasher.combine(recordName)
                hasher.combine(zone)
            }

            var change: CKSyncEngine.PendingRecordZoneChange {
                let id = CKRecord.ID(recordName: recordName, zoneID: zone.id)
                return delete ? .deleteRecord(id) : .saveRecord(id)
            }

            /// The change's name in ``retryAt``.
            var key: String { "\(delete ? "delete" : "save")/\(zone.key)/\(recordName)" }
        }

        /// A pending zone change as stored.
        struct PendingZone: Codable, Sendable, Hashable {
            var delete: Bool
            var zone: Zone

            init(_ change: CKSyncEngine.PendingDatabaseChange) {
                delete = if case .deleteZone = change { true } else { false }
                zone = Zone(change.zoneID)
            }

            var change: CKSyncEngine.PendingDatabaseChange { delete ? .deleteZone(zone.id) : .saveZone(CKRecordZone(zoneID: zone.id)) }
        }

        var databaseToken: String?
        var zoneTokens: [String: String] = [:]
        var records: [PendingRecord] = []
        var zones: [PendingZone] = []
        var unfetchedZones: [Zone] = []
        var hasPendingUntrackedChanges = false
        /// The sequence the next added record change gets.
        var nextSequence = 1
        /// The account the state belongs to (its user record name).
        var user: String?
        /// The account the engine's database subscription was saved for.
        var subscribedUser: String?
        /// When each record change a transient failure held back may be sent again (seconds since
        /// 1970, by ``PendingRecord/key``): kept in the state, so a relaunch waits out the
        /// server's `retryAfter` too. Optional: states saved before it decode.
        var retryAt: [String: Double]?
        /// The record changes set aside until the app adds them again (refused on their own as too
        /// large), by ``PendingRecord/key``. Optional: states saved before it decode.
        var setAside: Set<String>?

        init() {}

        func pendingRecordZoneChanges() -> [CKSyncEngine.PendingRecordZoneChange] { records.map(\.change) }
        func pendingDatabaseChanges() -> [CKSyncEngine.PendingDatabaseChange] { zones.map(\.change) }

        /// Adds changes: one for a record already pending takes that change's place in the list
        /// (Apple's `[saveA, saveB]` stays so when `saveA` is added again), with a new sequence so an
        /// answer to the one in flight does not remove it.
        mutating func add(_ changes: [CKSyncEngine.PendingRecordZoneChange]) {
            // Each record's place in the list, found once: adding a large library stays linear.
            var places: [RecordPlace: Int] = [:]
            for (index, record) in records.enumerated() { places[RecordPlace(record)] = index }
            for var change in changes.map(PendingRecord.init) {
                change.sequence = nextSequence
                nextSequence += 1
                // Added again (made smaller): it goes with the next batch.
                setAside?.remove(change.key)
                if let index = places[RecordPlace(change)] {
                    records[index] = change
                } else {
                    places[RecordPlace(change)] = records.count
                    records.append(change)
                }
            }
        }

        /// A record whatever its change (a save or a delete): one place in the list.
        private struct RecordPlace: Hashable {
            var recordName: String
            var zone: Zone

            init(_ record: PendingRecord) {
                recordName = record.recordName
                zone = record.zone
            }
        }

        /// The sequence the next change added takes: a mark taken before a batch is built.
        var sequenceMark: Int { nextSequence }

        /// The sequence of each of `changes` that is pending and was added before `mark` (one
        /// pass over the list, however many are asked: a batch of a large library stays linear).
        /// A change added since — while the batch was built, so perhaps after its record was
        /// read — has none: no answer to this batch removes it.
        func sequences(of changes: [CKSyncEngine.PendingRecordZoneChange], addedBefore mark: Int) -> [CKSyncEngine.PendingRecordZoneChange: Int] {
            var wanted: [PendingRecord: CKSyncEngine.PendingRecordZoneChange] = [:]
            for change in changes { wanted[PendingRecord(change)] = change }
            var found: [CKSyncEngine.PendingRecordZoneChange: Int] = [:]
            for record in records where record.sequence < mark {
                if let change = wanted[record] { found[change] = record.sequence }
            }
            return found
        }

        /// Removes answered changes, unless the app added them again since they were sent.
        mutating func remove(answered: [CKSyncEngine.PendingRecordZoneChange: Int]) {
            guard !answered.isEmpty else { return }
            var sent: [PendingRecord: Int] = [:]
            for (change, sequence) in answered { sent[PendingRecord(change)] = sequence }
            records.removeAll { record in sent[record] == record.sequence }
            forgetHoldsOfRemoved()
        }

        /// Drops the holds and set-asides of changes no longer pending.
        mutating func forgetHoldsOfRemoved() {
            guard retryAt?.isEmpty == false || setAside?.isEmpty == false else { return }
            let pending = Set(records.map(\.key))
            retryAt = retryAt?.filter { pending.contains($0.key) }
            setAside = setAside?.filter { pending.contains($0) }
        }

        /// Sets `change` aside until the app adds it again, at the end of the list (a batch built
        /// from the pending changes in order takes the others first) — unless the app added it
        /// again since it was sent (`sent`: the sequence it went with): the newer one goes next.
        mutating func setAside(_ change: CKSyncEngine.PendingRecordZoneChange, sent: Int?) {
            let record = PendingRecord(change)
            guard let index = records.firstIndex(of: record), records[index].sequence == sent else { return }
            setAside = (setAside ?? []).union([record.key])
            records.append(records.remove(at: index))
        }

        /// Holds `change` back until `date` (a transient failure's retry time).
        mutating func hold(_ change: CKSyncEngine.PendingRecordZoneChange, until date: Date) {
            retryAt = (retryAt ?? [:]).merging([PendingRecord(change).key: date.timeIntervalSince1970]) { max($0, $1) }
        }

        /// The changes still held back at `now`, and those set aside.
        mutating func held(at now: Date) -> Set<CKSyncEngine.PendingRecordZoneChange> {
            retryAt = retryAt?.filter { $0.value > now.timeIntervalSince1970 }
            let keys = Set(retryAt.map { Array($0.keys) } ?? []).union(setAside ?? [])
            return Set(records.filter { keys.contains($0.key) }.map(\.change))
        }

        /// How long until the last held change may go (`nil`: none is held at `now`).
        func longestHold(at now: Date) -> Double? {
            retryAt?.values.map { $0 - now.timeIntervalSince1970 }.filter { $0 > 0 }.max()
        }

        /// Adds zone changes: one for a zone already pending takes that change's place.
        mutating func add(_ changes: [CKSyncEngine.PendingDatabaseChange]) {
            for change in changes.map(PendingZone.init) {
                if let index = zones.firstIndex(where: { $0.zone == change.zone }) {
                    zones[index] = change
                } else {
                    zones.append(change)
                }
            }
        }

        /// Forgets everything of the account: tokens and pending changes (another account signed in).
        mutating func reset(for user: String?) {
            self = Serialization()
            self.user = user
        }
    }
}
