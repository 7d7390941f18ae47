import Foundation

extension CKSyncEngine {
    /// A record change waiting to be sent: a save (the delegate provides the record when the
    /// engine sends) or a delete.
    public enum PendingRecordZoneChange: Hashable, Sendable, CustomStringConvertible {
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

        public var description: String {
            switch self {
            case .saveRecord(let id): "saveRecord(\(id.recordName) in \(id.zoneID.zoneName))"
            case .deleteRecord(let id): "deleteRecord(\(id.recordName) in \(id.zoneID.zoneName))"
            }
        }
    }

    /// A zone change waiting to be sent.
    public enum PendingDatabaseChange: Hashable, Sendable, CustomStringConvertible {
        case saveZone(CKRecordZone)
        case deleteZone(CKRecordZone.ID)

        /// The zone the change is about.
        public var zoneID: CKRecordZone.ID {
            switch self {
            case .saveZone(let zone): zone.zoneID
            case .deleteZone(let id): id
            }
        }

        public var description: String {
            switch self {
            case .saveZone(let zone): "saveZone(\(zone.zoneID.zoneName))"
            case .deleteZone(let id): "deleteZone(\(id.zoneName))"
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

    /// What ``CKSyncEngine/sendChanges(_:)`` sends: the changes its ``scope`` contains, in the
    /// ``operationGroup`` the app names.
    public struct SendChangesOptions: Sendable, CustomStringConvertible {
        /// Which pending changes a send covers.
        public enum Scope: Hashable, Sendable, CustomStringConvertible {
            case all
            case zoneIDs([CKRecordZone.ID])
            case allExcluding([CKRecordZone.ID])
            case recordIDs([CKRecord.ID])

            /// Whether the scope covers changes to this record.
            public func contains(_ recordID: CKRecord.ID) -> Bool {
                switch self {
                case .recordIDs(let ids): ids.contains(recordID)
                default: contains(recordID.zoneID)
                }
            }

            /// Whether the scope covers this pending change.
            public func contains(_ pendingRecordZoneChange: PendingRecordZoneChange) -> Bool { contains(pendingRecordZoneChange.recordID) }

            /// Whether the scope covers this zone change.
            public func contains(_ pendingDatabaseChange: PendingDatabaseChange) -> Bool { contains(pendingDatabaseChange.zoneID) }

            /// Whether the scope covers any change in this zone.
            public func contains(_ zoneID: CKRecordZone.ID) -> Bool {
                switch self {
                case .all: true
                case .zoneIDs(let ids): ids.contains(zoneID)
                case .allExcluding(let ids): !ids.contains(zoneID)
                case .recordIDs(let ids): ids.contains { $0.zoneID == zoneID }
                }
            }

            public var description: String {
                switch self {
                case .all: "all"
                case .zoneIDs(let ids): "zoneIDs(\(ids.map(\.zoneName)))"
                case .allExcluding(let ids): "allExcluding(\(ids.map(\.zoneName)))"
                case .recordIDs(let ids): "recordIDs(\(ids.map(\.recordName)))"
                }
            }
        }

        public var scope: Scope
        /// The group the engine's requests belong to: the one the app gives, else a fresh group
        /// of the options' own: Apple's `init` documents "if nil, a default operation group will be
        /// created" (`options.operationGroup.name` reads `nil` until the app names it). Declared
        /// implicitly unwrapped, as code written against the SDK's earlier spelling expects; it
        /// is never `nil`.
        public var operationGroup: CKOperationGroup!

        public init(scope: Scope = .all, operationGroup: CKOperationGroup? = nil) {
            self.scope = scope
            self.operationGroup = operationGroup ?? CKOperationGroup()
        }

        public var description: String { "SendChangesOptions(scope: \(scope), operationGroup: \(operationGroup.map { "\($0)" } ?? "nil"))" }
    }

    /// What ``CKSyncEngine/fetchChanges(_:)`` fetches: the zones its ``scope`` contains,
    /// ``prioritizedZoneIDs`` first, in the ``operationGroup`` the app names.
    public struct FetchChangesOptions: Sendable, CustomStringConvertible {
        /// Which zones a fetch covers.
        public enum Scope: Hashable, Sendable, CustomStringConvertible {
            case all
            case zoneIDs([CKRecordZone.ID])
            case allExcluding([CKRecordZone.ID])

            /// Whether the scope covers this zone.
            public func contains(_ zoneID: CKRecordZone.ID) -> Bool {
                switch self {
                case .all: true
                case .zoneIDs(let ids): ids.contains(zoneID)
                case .allExcluding(let ids): !ids.contains(zoneID)
                }
            }

            public var description: String {
                switch self {
                case .all: "all"
                case .zoneIDs(let ids): "zoneIDs(\(ids.map(\.zoneName)))"
                case .allExcluding(let ids): "allExcluding(\(ids.map(\.zoneName)))"
                }
            }
        }

        public var scope: Scope
        /// The group the engine's requests belong to: the one the app gives, else a fresh group
        /// of the options' own: Apple's `init` documents "if nil, a default operation group will be
        /// created" (`options.operationGroup.name` reads `nil` until the app names it). Declared
        /// implicitly unwrapped, as code written against the SDK's earlier spelling expects; it
        /// is never `nil`.
        public var operationGroup: CKOperationGroup!
        /// Zones to fetch first.
        public var prioritizedZoneIDs: [CKRecordZone.ID] = []

        public init(scope: Scope = .all, operationGroup: CKOperationGroup? = nil) {
            self.scope = scope
            self.operationGroup = operationGroup ?? CKOperationGroup()
        }

        public var description: String {
            "FetchChangesOptions(scope: \(scope), operationGroup: \(operationGroup.map { "\($0)" } ?? "nil"), prioritizedZoneIDs: \(prioritizedZoneIDs.map(\.zoneName)))"
        }
    }

    /// Why the engine is sending or fetching.
    public enum SyncReason: Hashable, Sendable, CustomStringConvertible {
        /// The engine's own schedule (automatic sync).
        case scheduled
        /// The app asked.
        case manual

        public var description: String {
            switch self {
            case .scheduled: "scheduled"
            case .manual: "manual"
            }
        }
    }

    /// The send the delegate is asked for a batch of.
    public struct SendChangesContext: Sendable, CustomStringConvertible {
        public let reason: SyncReason
        public let options: SendChangesOptions

        public var description: String { "SendChangesContext(reason: \(reason), options: \(options))" }
    }

    /// The fetch the delegate is asked for options of.
    public struct FetchChangesContext: Sendable, CustomStringConvertible {
        public let reason: SyncReason
        public let options: FetchChangesOptions

        public var description: String { "FetchChangesContext(reason: \(reason), options: \(options))" }
    }

    /// Records to save and IDs to delete, in one request per zone (`atomicByZone`: each zone's
    /// changes all or nothing).
    public struct RecordZoneChangeBatch: Sendable {
        public var recordsToSave: [CKRecord]
        public var recordIDsToDelete: [CKRecord.ID]
        public var atomicByZone: Bool

        /// The most changes a batch takes (CloudKit Web Services' operations a request).
        static let limit = 200

        public init(recordsToSave: [CKRecord] = [], recordIDsToDelete: [CKRecord.ID] = [], atomicByZone: Bool = false) {
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
