import Foundation

/// The calls ``CKSyncEngine`` makes of its database — the seam under the engine. ``CKDatabase``
/// conforms (over the server); a scripted fake (`StratusCloudKitTesting`) conforms in tests, so
/// the engine's rules are tested in milliseconds, with no server.
package protocol SyncDatabase: AnyObject, Sendable {
    /// The database the engine syncs (private or shared).
    var databaseScope: CKDatabase.Scope { get }
    /// Whether the device holds an account at all (`false` once the user signed out, unlike an
    /// account whose token the server refuses).
    var holdsAccount: Bool { get }
    /// Who is signed in.
    func userRecordID() async throws -> CKRecord.ID
    /// Saves the engine's database subscription.
    func save(_ subscription: CKSubscription) async throws -> CKSubscription
    /// One page of the database's zone changes since `changeToken`.
    func databaseChanges(since changeToken: CKServerChangeToken?) async throws -> SyncDatabaseChanges
    /// One page of a zone's record changes since `changeToken`.
    func recordZoneChanges(inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, resultsLimit: Int?) async throws
        -> SyncZoneChanges
    /// Saves and deletes records, per record results.
    func modifyRecords(
        saving recordsToSave: [CKRecord], deleting recordIDsToDelete: [CKRecord.ID], savePolicy: CKModifyRecordsOperation.RecordSavePolicy,
        atomically: Bool
    ) async throws -> SyncRecordResults
    /// Saves and deletes zones, per zone results.
    func modifyRecordZones(saving recordZonesToSave: [CKRecordZone], deleting recordZoneIDsToDelete: [CKRecordZone.ID]) async throws
        -> SyncZoneResults
    /// Listens for pushes while `listening()` holds, calling `pushed()` for each that concerns
    /// this database; waits (its back-off after a failure) on `clock`. Returns when
    /// `listening()` no longer holds or the task is cancelled.
    func listenForPushes(clock: SyncClock, while listening: @escaping @Sendable () -> Bool, pushed: @escaping @Sendable () -> Void) async
}

/// A page of ``SyncDatabase/databaseChanges(since:)``.
package typealias SyncDatabaseChanges = (
    modifications: [CKDatabase.DatabaseChange.Modification], deletions: [CKDatabase.DatabaseChange.Deletion], changeToken: CKServerChangeToken,
    moreComing: Bool
)

/// A page of ``SyncDatabase/recordZoneChanges(inZoneWith:since:resultsLimit:)``.
package typealias SyncZoneChanges = (
    modificationResultsByID: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>],
    deletions: [CKDatabase.RecordZoneChange.Deletion], changeToken: CKServerChangeToken, moreComing: Bool
)

/// The answer of ``SyncDatabase/modifyRecords(saving:deleting:savePolicy:atomically:)``.
package typealias SyncRecordResults = (saveResults: [CKRecord.ID: Result<CKRecord, any Error>], deleteResults: [CKRecord.ID: Result<Void, any Error>])

/// The answer of ``SyncDatabase/modifyRecordZones(saving:deleting:)``.
package typealias SyncZoneResults = (
    saveResults: [CKRecordZone.ID: Result<CKRecordZone, any Error>], deleteResults: [CKRecordZone.ID: Result<Void, any Error>]
)
