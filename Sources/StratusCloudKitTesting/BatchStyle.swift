import StratusCloudKit

/// How a test's delegate builds the engine's next batch — the two ways apps do.
package enum BatchStyle: Sendable {
    /// `RecordZoneChangeBatch(pendingChanges:recordProvider:)`, as Apple's sample app does.
    case pendingChanges
    /// Every pending change in one batch made with `init(recordsToSave:recordIDsToDelete:atomicByZone:)`.
    case everythingAtOnce(atomicByZone: Bool)

    /// The batch of `pending` in this style, each saved record from `record` (a change with no
    /// record is left out); `nil` when nothing is left.
    package func batch(
        of pending: [CKSyncEngine.PendingRecordZoneChange], record: @escaping @Sendable (CKRecord.ID) -> CKRecord?
    ) async -> CKSyncEngine.RecordZoneChangeBatch? {
        switch self {
        case .pendingChanges:
            return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending, recordProvider: record)
        case .everythingAtOnce(let atomicByZone):
            var saves: [CKRecord] = []
            var deletes: [CKRecord.ID] = []
            for change in pending {
                switch change {
                case .saveRecord(let id):
                    if let saved = record(id) { saves.append(saved) }
                case .deleteRecord(let id):
                    deletes.append(id)
                }
            }
            guard !saves.isEmpty || !deletes.isEmpty else { return nil }
            return CKSyncEngine.RecordZoneChangeBatch(recordsToSave: saves, recordIDsToDelete: deletes, atomicByZone: atomicByZone)
        }
    }
}
