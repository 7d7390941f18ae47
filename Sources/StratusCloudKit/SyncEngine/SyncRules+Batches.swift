import Foundation

/// Which of the delegate's changes a send sends, and which of a modify's answers are reported.
extension SyncRules {
    /// The delegate's batch without the changes this send already sent (`attempted`) or that wait
    /// (`held`: out a server's `retryAfter`, or set aside until the app adds them again), and
    /// without the records whose parent waits — sent first, a child would be refused for a parent
    /// the server does not have, and leave the list; it waits with its parent, pending. `nil` when
    /// nothing is left to send.
    static func unsent(
        _ batch: CKSyncEngine.RecordZoneChangeBatch, attempted: Set<CKSyncEngine.PendingRecordZoneChange>,
        held: Set<CKSyncEngine.PendingRecordZoneChange>
    ) -> CKSyncEngine.RecordZoneChangeBatch? {
        var unsent = batch
        unsent.recordsToSave.removeAll { attempted.contains(.saveRecord($0.recordID)) }
        var waiting = Set(held.compactMap { change -> CKRecord.ID? in if case .saveRecord(let id) = change { id } else { nil } })
        // Children of waiting parents wait too, down the batch's chains.
        var grew = true
        while grew {
            grew = false
            for record in unsent.recordsToSave where !waiting.contains(record.recordID) {
                guard let parent = record.parent?.recordID, waiting.contains(parent) else { continue }
                waiting.insert(record.recordID)
                grew = true
            }
        }
        unsent.recordsToSave.removeAll { waiting.contains($0.recordID) }
        unsent.recordIDsToDelete.removeAll { attempted.contains(.deleteRecord($0)) || held.contains(.deleteRecord($0)) }
        return unsent.recordsToSave.isEmpty && unsent.recordIDsToDelete.isEmpty ? nil : unsent
    }

    /// A modify's answers to the changes it was sent, in their order: the changes the server
    /// took (with what it answered) and those it refused (with the error as CloudKit names it).
    /// A change the answer does not name is in neither — it stays as it was.
    static func answers<Change, Key: Hashable, Answer>(
        to changes: [Change], by key: (Change) -> Key, in results: [Key: Result<Answer, any Error>]
    ) -> (taken: [(change: Change, answer: Answer)], refused: [(change: Change, error: CKError)]) {
        var taken: [(change: Change, answer: Answer)] = []
        var refused: [(change: Change, error: CKError)] = []
        for change in changes {
            switch results[key(change)] {
            case .success(let answer)?: taken.append((change, answer))
            case .failure(let failure)?: refused.append((change, CKError.wrapping(failure)))
            case nil: continue
            }
        }
        return (taken, refused)
    }

    /// A sent batch split by its answers: the changes answered (reported now) and the rest, which
    /// a later zone's refusal as too large left unanswered and which go again, smaller
    /// (``verdict(forChange:now:)`` is `.sentAgainSmaller`).
    static func partition(
        _ batch: CKSyncEngine.RecordZoneChangeBatch, saveFailures: [CKRecord.ID: CKError], deleteFailures: [CKRecord.ID: CKError], now: Date
    ) -> (answered: CKSyncEngine.RecordZoneChangeBatch, again: CKSyncEngine.RecordZoneChangeBatch) {
        func again(_ failure: CKError?) -> Bool {
            guard let failure else { return false }
            return verdict(forChange: failure, now: now) == .sentAgainSmaller
        }
        var answered = batch
        var rest = CKSyncEngine.RecordZoneChangeBatch(atomicByZone: batch.atomicByZone)
        answered.recordsToSave = batch.recordsToSave.filter { !again(saveFailures[$0.recordID]) }
        answered.recordIDsToDelete = batch.recordIDsToDelete.filter { !again(deleteFailures[$0]) }
        rest.recordsToSave = batch.recordsToSave.filter { again(saveFailures[$0.recordID]) }
        rest.recordIDsToDelete = batch.recordIDsToDelete.filter { again(deleteFailures[$0]) }
        return (answered, rest)
    }
}
