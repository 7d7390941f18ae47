import StratusModel

/// A record's identity for the sync engine (`CKRecord.ID`).
public struct SyncRecordID: Sendable, Hashable, Codable {
    public var zoneID: ZoneID
    public var recordName: String

    public init(zoneID: ZoneID, recordName: String) {
        self.zoneID = zoneID
        self.recordName = recordName
    }
}

/// A record change waiting to be sent (`CKSyncEngine.PendingRecordZoneChange`).
public enum PendingRecordZoneChange: Sendable, Hashable, Codable {
    case saveRecord(SyncRecordID)
    case deleteRecord(SyncRecordID)

    public var recordID: SyncRecordID {
        switch self {
        case .saveRecord(let id), .deleteRecord(let id): id
        }
    }
}

/// A zone change waiting to be sent (`CKSyncEngine.PendingDatabaseChange`).
public enum PendingDatabaseChange: Sendable, Hashable, Codable {
    case saveZone(ZoneID)
    case deleteZone(ZoneID)
}

/// The engine's serializable state (`CKSyncEngine.State.Serialization`): change tokens,
/// pending changes and the last user. Persist it on every ``SyncEngine/Event/stateUpdate(_:)``
/// and hand it back at start-up.
public struct SyncEngineState: Sendable, Hashable, Codable {
    public var databaseToken: String?
    /// Zone change tokens by `owner/zoneName`.
    public var zoneTokens: [String: String] = [:]
    public var pendingRecordZoneChanges: [PendingRecordZoneChange] = []
    public var pendingDatabaseChanges: [PendingDatabaseChange] = []
    public var lastUserRecordName: String?
    /// The account the engine's database subscription was saved for.
    public var subscribedUser: String?

    public init() {}

    static func key(_ zoneID: ZoneID) -> String { "\(zoneID.ownerRecordName ?? "")/\(zoneID.zoneName)" }

    /// Adds changes; a record's later change replaces its earlier one (and moves to the end).
    public mutating func add(_ changes: [PendingRecordZoneChange]) {
        for change in changes {
            pendingRecordZoneChanges.removeAll { $0.recordID == change.recordID }
            pendingRecordZoneChanges.append(change)
        }
    }

    /// Adds zone changes; a save and a delete of the same zone leave only the later one.
    public mutating func add(_ changes: [PendingDatabaseChange]) {
        for change in changes where !pendingDatabaseChanges.contains(change) {
            pendingDatabaseChanges.removeAll { existing in
                switch (existing, change) {
                case (.saveZone(let a), .deleteZone(let b)), (.deleteZone(let a), .saveZone(let b)): a == b
                default: false
                }
            }
            pendingDatabaseChanges.append(change)
        }
    }
}

/// A record deleted on the server, as a fetch reports it (`CKSyncEngine`'s deletion: the ID
/// and the record type).
public struct RecordDeletion: Sendable, Hashable {
    public var recordID: SyncRecordID
    /// From the tombstone when the server sends it, else from the delegate (the device's
    /// mirror); `nil` for a record neither knows.
    public var recordType: String?

    public init(recordID: SyncRecordID, recordType: String?) {
        self.recordID = recordID
        self.recordType = recordType
    }
}

/// A save the server refused, with why, and the record's full ID (its zone and name: the same
/// name may be pending in two zones).
public struct FailedRecordSave: Sendable, Hashable {
    public var record: Record
    public var error: CloudError
    public var recordID: SyncRecordID
}

/// What the engine tells its delegate (`CKSyncEngine.Event`), one at a time, in Apple's order:
/// fetches are `willFetchChanges`, `fetchedDatabaseChanges`, then per zone
/// `willFetchRecordZoneChanges`, `fetchedRecordZoneChanges` and `stateUpdate` per page,
/// `didFetchRecordZoneChanges`, and finally `didFetchChanges`; sends are `willSendChanges`,
/// `sentDatabaseChanges`, `sentRecordZoneChanges` and `stateUpdate` per batch, `didSendChanges`.
public enum SyncEngineEvent: Sendable {
    case stateUpdate(SyncEngineState)
    case accountChange(previous: String?, current: String?)
    case willFetchChanges
    case fetchedDatabaseChanges(modifications: [ZoneID], deletions: [(ZoneID, ZoneDeletionReason)])
    case willFetchRecordZoneChanges(ZoneID)
    /// Stratus addition: the zone's token expired; the engine fetches the zone again from scratch.
    case zoneChangeTokenExpired(ZoneID)
    case fetchedRecordZoneChanges(modifications: [Record], deletions: [RecordDeletion])
    case didFetchRecordZoneChanges(ZoneID, error: CloudError?)
    case didFetchChanges
    case willSendChanges
    case sentDatabaseChanges(saved: [ZoneID], deleted: [ZoneID], failed: [(ZoneID, CloudError)])
    case sentRecordZoneChanges(saved: [Record], deleted: [SyncRecordID], failed: [FailedRecordSave], failedDeletes: [(SyncRecordID, CloudError)])
    case didSendChanges
}

/// The app's side of the engine (`CKSyncEngineDelegate`).
public protocol SyncEngineDelegate: Sendable {
    /// Handles one event; the engine waits for it before the next. Throwing stops the fetch or
    /// send in progress (state saved so far stays saved).
    func handleEvent(_ event: SyncEngineEvent, syncEngine: SyncEngine) async throws
    /// The record operation that sends a pending save, or `nil` when there is none yet (the
    /// change stays pending).
    func recordToSave(_ id: SyncRecordID, syncEngine: SyncEngine) async -> RecordOperation?
    /// The type of a record the app holds (for deletions the server reports without one).
    func recordType(of id: SyncRecordID, syncEngine: SyncEngine) async -> String?
}

extension SyncEngineDelegate {
    /// Without a mirror to ask, a deletion's type is what the server sent.
    public func recordType(of id: SyncRecordID, syncEngine: SyncEngine) async -> String? { nil }
}
