/// Why a zone left a database, as `changes/database` reports it in `deletionReason` (a Stratus
/// addition; native CloudKit tells the three apart with separate callbacks, and CKSyncEngine with
/// `Event.FetchedDatabaseChanges.Deletion.Reason`).
public enum ZoneDeletionReason: String, Sendable, Hashable, Codable, CaseIterable {
    /// Deleted by its owner's app or, in the shared database, no longer shared with the user.
    case deleted
    /// The user deleted the app's data from Settings (CKError `userDeletedZone`).
    case purged
    /// The user reset their encrypted data (Advanced Data Protection): encrypted fields are unreadable.
    case encryptedDataReset
}
