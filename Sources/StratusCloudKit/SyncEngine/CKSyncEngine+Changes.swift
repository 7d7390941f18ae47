import Foundation

extension CKSyncEngine {
    /// A record change waiting to be sent: a save (the delegate provides the record when the
    /// engine sends) or a delete.
    public enum PendingRecordZoneChange: Hashable, Sendable {
        case saveRecord(CKRecord.ID)
        case deleteRecord(CKRecord.ID)

        /// Apple's first samples' spelling of ``saveRecord(_:)``.
        @available(*, deprecated, renamed: "saveRecord")
        public static func save(_ recordID: CKRecord.ID) -> Self { .saveRecord(recordID) }

        /// Apple's first samples' spelling of ``deleteRecord(_:)``.
        @available(*, deprecated, renamed: "deleteRecord")
        public static func delete(_ recordID: CKRecord.ID) -> Self { .deleteRecord(recordID) }

        /// The record the change is about.
        public var recordID: CKRecord.ID {
            switch self {
            case .saveRecord(let id), .deleteRecord(let id): id
            }
        }
    }

    /// A zone change waiting to be sent.
    public enum PendingDatabaseChange: Hashable, Sendable {
        case saveZone(CKRecordZone)
        case deleteZone(CKRecordZone.ID)

        /// The zone the change is about.
        public var zoneID: CKRecordZone.ID {
            switch self {
            case .saveZone(let zone): zone.zoneID
            case .deleteZone(let id): id
            }
        }

        public static func == (lhs: Self, rhs: Self) -> Bool {
            switch (lhs, rhs) {
            case (.saveZone(let a), .saveZone(let b)): a.zoneID == b.zoneID
            case (.deleteZone(let a), .deleteZone(let b)): a == b
            default: false
            }
        }

        public func hash(into hasher: inout Hasher) {
            switch self {
            case .saveZone(let zone): hasher.combine(0); hasher.combine(zone.zoneID)
            case .deleteZone(let id): hasher.combine(1); hasher.combine(id)
            }
        }
    }

    /// Which changes a send or a fetch covers.
    public enum ChangeScope: Hashable, Sendable {
        case all
        case zoneIDs(Set<CKRecordZone.ID>)
        case allExcluding(Set<CKRecordZone.ID>)
        case recordIDs(Set<CKRecord.ID>)

        public func contains(_ change: PendingRecordZoneChange) -> Bool {
            switch self {
            case .recordIDs(let ids): ids.contains(change.recordID)
            default: contains(change.recordID.zoneID)
            }
        }

        public func contains(_ change: PendingDatabaseChange) -> Bool { contains(change.zoneID) }

        public func contains(_ zoneID: CKRecordZone.ID) -> Bool {
            switch self {
            case .all: true
            case .zoneIDs(let ids): ids.contains(zoneID)
            case .allExcluding(let ids): !ids.contains(zoneID)
            case .recordIDs(let ids): ids.contains { $0.zoneID == zoneID }
            }
        }
    }

    /// What ``CKSyncEngine/sendChanges(_:)`` sends.
    public struct SendChangesOptions: Sendable {
        public typealias Scope = ChangeScope
        public var scope: ChangeScope
        public init(scope: ChangeScope = .all) { self.scope = scope }
    }

    /// What ``CKSyncEngine/fetchChanges(_:)`` fetches.
    public struct FetchChangesOptions: Sendable {
        public typealias Scope = ChangeScope
        public var scope: ChangeScope
        /// Zones to fetch first.
        public var prioritizedZoneIDs: [CKRecordZone.ID] = []
        public init(scope: ChangeScope = .all) { self.scope = scope }
    }

    /// Why the engine is sending or fetching.
    public enum SyncReason: Hashable, Sendable {
        /// The engine's own schedule (automatic sync).
        case scheduled
        /// The app asked.
        case manual
    }

    /// The send the delegate is asked for a batch of.
    public struct SendChangesContext: Sendable {
        public let reason: SyncReason
        public let options: SendChangesOptions
    }

    /// The fetch the delegate is asked for options of.
    public struct FetchChangesContext: Sendable {
        public let reason: SyncReason
        public let options: FetchChangesOptions
    }

    /// Records to save and IDs to delete, in one request per zone (`atomicByZone`: each zone's
    /// changes all or nothing).
    public struct RecordZoneChangeBatch: @unchecked Sendable {
        public var recordsToSave: [CKRecord]
        public var recordIDsToDelete: [CKRecord.ID]
        public var atomicByZone: Bool

        /// The most changes a batch takes (CloudKit Web Services' operations a request).
        static let limit = 200

        public init(recordsToSave: [CKRecord], recordIDsToDelete: [CKRecord.ID], atomicByZone: Bool = false) {
            self.recordsToSave = recordsToSave
            self.recordIDsToDelete = recordIDsToDelete
            self.atomicByZone = atomicByZone
        }

        /// A batch of the first pending changes that fit, asking `recordProvider` for each save's
        /// record (a save it has none for is left pending and out of the batch); `nil` when
        /// nothing is left to send.
        public init?(
            pendingChanges: [PendingRecordZoneChange], recordProvider: @Sendable (CKRecord.ID) async -> CKRecord?
        ) async {
            var saves: [CKRecord] = []
            var deletes: [CKRecord.ID] = []
            for change in pendingChanges {
                guard saves.count + deletes.count < Self.limit else { break }
                switch change {
                case .saveRecord(let id):
                    if let record = await recordProvider(id) { saves.append(record) }
                case .deleteRecord(let id):
                    deletes.append(id)
                }
            }
            guard !saves.isEmpty || !deletes.isEmpty else { return nil }
            self.init(recordsToSave: saves, recordIDsToDelete: deletes, atomicByZone: false)
        }
    }
}
