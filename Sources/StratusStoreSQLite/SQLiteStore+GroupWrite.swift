import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    /// Writes a group of zone batches in one transaction, each inside its own savepoint so an
    /// atomic batch that fails (or names a missing zone) rolls back alone. Runs on the writer.
    static func write(group batches: [PreparedBatch], in db: Database, reading: BatchReading) -> [Result<ZoneBatchResult, StoreError>] {
        var results: [Result<ZoneBatchResult, StoreError>] = []
        results.reserveCapacity(batches.count)
        do {
            try db.inTransaction(.immediate) {
                var group = GroupCommitState(sequence: try currentSequence(in: db))
                for batch in batches {
                    var result: Result<ZoneBatchResult, StoreError> = .failure(StoreError(.failure, "batch produced no result"))
                    do {
                        try db.inSavepoint {
                            let key = batch.batch.zone
                            guard let zone = try group.zone(key) ?? fetchZone(key, in: db) else { throw StoreError(.zoneNotFound) }
                            group.remember(zone, as: key)
                            let rows = SQLiteBatchRows(db: db, zoneID: zone.id)
                            let decision: ZoneBatchDecision
                            switch reading {
                            case .onDemand:
                                decision = try ZoneBatchEngine.decide(batch, zone: zone, sequence: group.sequence, rows: rows, ids: .random)
                            case .readAhead(let tally):
                                let decided = try ReadAheadBatchRows.decide(batch, zone: zone, sequence: group.sequence, over: rows, ids: .random)
                                tally.decided(inRuns: decided.runs)
                                decision = decided.decision
                            }
                            result = .success(decision.result)
                            guard decision.commit else { return .rollback }
                            try SQLiteBatchWrites(db: db, zoneID: zone.id).write(decision.writes, of: key.database)
                            if decision.sequence != group.sequence {
                                group.committed(decision.result.zone, key: key, sequence: decision.sequence)
                            }
                            return .commit
                        }
                    } catch let error as StoreError {
                        result = .failure(error)
                    }
                    results.append(result)
                }
                if let changes = group.changes {
                    try setSequence(changes.sequence, in: db)
                    for zone in changes.zones {
                        try db.cachedStatement(sql: "UPDATE zones SET last_seq = ?, feed_seq = ? WHERE id = ?")
                            .execute(arguments: [zone.lastSeq, zone.lastSeq, zone.id])
                    }
                }
                return .commit
            }
            return results
        } catch {
            let failure = SQLiteStore.translate(error)
            return batches.map { _ in .failure(failure) }
        }
    }
}
