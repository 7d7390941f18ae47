import Foundation

extension CKSyncEngine {
    /// What the engine tells its delegate, one event at a time, in Apple's order: a fetch is
    /// `willFetchChanges`, `fetchedDatabaseChanges`, then per zone `willFetchRecordZoneChanges`,
    /// `fetchedRecordZoneChanges` and `stateUpdate` per page, `didFetchRecordZoneChanges`, and
    /// `didFetchChanges`; a send is `willSendChanges`, `sentDatabaseChanges`, then
    /// `sentRecordZoneChanges` and `stateUpdate` per batch, and `didSendChanges`.
    public enum Event: Sendable {
        case stateUpdate(StateUpdate)
        case accountChange(AccountChange)
        case fetchedDatabaseChanges(FetchedDatabaseChanges)
        case fetchedRecordZoneChanges(FetchedRecordZoneChanges)
        case sentDatabaseChanges(SentDatabaseChanges)
        case sentRecordZoneChanges(SentRecordZoneChanges)
        case willFetchChanges(WillFetchChanges)
        case willFetchRecordZoneChanges(WillFetchRecordZoneChanges)
        case didFetchRecordZoneChanges(DidFetchRecordZoneChanges)
        case didFetchChanges(DidFetchChanges)
        case willSendChanges(WillSendChanges)
        case didSendChanges(DidSendChanges)
    }
}

extension CKSyncEngine.Event {
    /// The engine's state changed: persist ``stateSerialization``.
    public struct StateUpdate: Sendable {
        public let stateSerialization: CKSyncEngine.State.Serialization
    }

    /// The account changed: another user signed in, the user signed out, or someone signed in.
    public struct AccountChange: Sendable {
        public enum ChangeType: Sendable {
            case signIn(currentUser: CKRecord.ID)
            case signOut(previousUser: CKRecord.ID)
            case switchAccounts(previousUser: CKRecord.ID, currentUser: CKRecord.ID)
        }

        public let changeType: ChangeType
    }

    /// Zones changed and deleted on the server.
    public struct FetchedDatabaseChanges: Sendable {
        public let modifications: [CKDatabase.DatabaseChange.Modification]
        public let deletions: [CKDatabase.DatabaseChange.Deletion]
    }

    /// A page of one zone's record changes.
    public struct FetchedRecordZoneChanges: Sendable {
        public let modifications: [CKDatabase.RecordZoneChange.Modification]
        public let deletions: [CKDatabase.RecordZoneChange.Deletion]
    }

    /// Zone saves and deletes the server answered.
    public struct SentDatabaseChanges: Sendable {
        public struct FailedZoneSave: Sendable {
            public let zone: CKRecordZone
            public let error: CKError
        }

        public let savedZones: [CKRecordZone]
        public let failedZoneSaves: [FailedZoneSave]
        public let deletedZoneIDs: [CKRecordZone.ID]
        public let failedZoneDeletes: [CKRecordZone.ID: CKError]
    }

    /// Record saves and deletes the server answered.
    public struct SentRecordZoneChanges: Sendable {
        public struct FailedRecordSave: Sendable {
            public let record: CKRecord
            public let error: CKError
        }

        public let savedRecords: [CKRecord]
        public let failedRecordSaves: [FailedRecordSave]
        public let deletedRecordIDs: [CKRecord.ID]
        public let failedRecordDeletes: [CKRecord.ID: CKError]
    }

    public struct WillFetchChanges: Sendable {
        public let context: CKSyncEngine.FetchChangesContext
    }

    public struct WillFetchRecordZoneChanges: Sendable {
        public let zoneID: CKRecordZone.ID
    }

    public struct DidFetchRecordZoneChanges: Sendable {
        public let zoneID: CKRecordZone.ID
        public let error: CKError?
    }

    public struct DidFetchChanges: Sendable {
        public let context: CKSyncEngine.FetchChangesContext
    }

    public struct WillSendChanges: Sendable {
        public let context: CKSyncEngine.SendChangesContext
    }

    public struct DidSendChanges: Sendable {
        public let context: CKSyncEngine.SendChangesContext
    }
}

/// The app's side of a ``CKSyncEngine``: it handles events (saving state, applying fetched
/// changes, answering failed sends) and provides the records to send.
public protocol CKSyncEngineDelegate: AnyObject, Sendable {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async
    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch?
    func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions
}

extension CKSyncEngineDelegate {
    /// By default a fetch keeps the options it was asked with.
    public func nextFetchChangesOptions(_ context: CKSyncEngine.FetchChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.FetchChangesOptions {
        context.options
    }
}
