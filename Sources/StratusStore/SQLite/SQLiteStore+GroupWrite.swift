import Foundation
import GRDB
import StratusModel

/// What the batches of one group commit share: the change sequence and the zones they touched,
/// read once per group and written back once at its end.
struct GroupWriteState {
    private(set) var sequence: Int64
    private var zones: [ZoneKey: StoredZone] = [:]
    private var touched: Set<ZoneKey> = []
    private let startSequence: Int64

    init(db: Database) throws {
        self.sequence = try SQLiteStore.currentSequence(in: db)
        self.startSequence = sequence
    }

    /// The live zone, read from the database on first use in the group.
    mutating func zone(_ key: ZoneKey, in db: Database) throws -> StoredZone? {
        if let zone = zones[key] { return zone }
        let zone = try SQLiteStore.fetchZone(key, in: db)
        zones[key] = zone
        return zone
    }

    /// Records what a committed batch changed.
    mutating func committed(_ zone: StoredZone, key: ZoneKey, sequence: Int64) {
        zones[key] = zone
        touched.insert(key)
        self.sequence = sequence
    }

    /// Writes the sequence and the touched zones' positions back.
    func finish(in db: Database) throws {
        guard sequence != startSequence else { return }
        try SQLiteStore.setSequence(sequence, in: db)
        for key in touched {
            guard let zone = zones[key] else { continue }
            try db.cachedStatement(sql: "UPDATE zones SET last_seq = ?, feed_seq = ? WHERE id = ?")
                .execute(arguments: [zone.lastSeq, zone.lastSeq, zone.id])
        }
    }
}

extension SQLiteStore {
    /// Writes a group of zone batches in one transaction, each inside its own savepoint so an
    /// atomic batch that fails (or names a missing zone) rolls back alone. Runs on the writer.
    static func write(group batches: [PreparedBatch], in db: Database) -> [Result<ZoneBatchResult, StoreError>] {
        var results: [Result<ZoneBatchResult, StoreError>] = []
        results.reserveCapacity(batches.count)
        do {
            try db.inTransaction(.immediate) {
                var group = try GroupWriteState(db: db)
                for batch in batches {
                    var result: Result<ZoneBatchResult, StoreError> = .failure(StoreError(.failure, "batch produced no result"))
                    do {
                        try db.inSavepoint {
                            let key = batch.batch.zone
                            guard let zone = try group.zone(key, in: db) else { throw StoreError(.zoneNotFound) }
                            let rows = SQLiteBatchRows(db: db, zoneID: zone.id)
                            let decision = try ZoneBatchEngine.decide(batch, zone: zone, sequence: group.sequence, rows: rows)
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
                try group.finish(in: db)
                return .commit
            }
            return results
        } catch {
            let failure = SQLiteStore.translate(error)
            return batches.map { _ in .failure(failure) }
        }
    }
}
