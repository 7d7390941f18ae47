import CoreMetrics
import Foundation
import Logging
import PostgresNIO
import Synchronization
import StratusModel
import StratusStore

/// Group commit, as the SQLite store does it: zone batches that arrive while this instance's
/// transaction is open are written together in its next one (each in a savepoint, so a failed
/// atomic batch rolls back alone), so N concurrent saves cost one commit and one turn of the
/// writers' lock. One drain task runs while anything is queued; none exists otherwise.
final class PostgresGroupCommit: Sendable {
    typealias Outcome = Result<ZoneBatchResult, StoreError>
    typealias Write = @Sendable ([PreparedBatch]) async -> [Outcome]

    private struct Waiter: Sendable {
        let batch: PreparedBatch
        let continuation: CheckedContinuation<Outcome, Never>
    }

    private struct State: Sendable {
        var queue: [Waiter] = []
        var draining = false
    }

    private let state = Mutex(State())
    private let write: Write
    let maximumGroup: Int
    let maximumCost: Int

    /// At most 64 batches a group: each is a subtransaction, and PostgreSQL keeps 64 of a
    /// transaction's subtransactions in shared memory before every other snapshot slows down.
    init(maximumGroup: Int = 64, maximumCost: Int = 2_000, write: @escaping Write) {
        self.maximumGroup = maximumGroup
        self.maximumCost = maximumCost
        self.write = write
    }

    /// Writes `batch` in the next group and returns its own outcome.
    func submit(_ batch: PreparedBatch) async -> Outcome {
        await withCheckedContinuation { continuation in
            let mustStart = state.withLock { state -> Bool in
                state.queue.append(Waiter(batch: batch, continuation: continuation))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if mustStart { Task { await self.drain() } }
        }
    }

    private func drain() async {
        while true {
            let group = state.withLock { state -> [Waiter] in
                let count = PreparedBatch.groupCount(state.queue.lazy.map(\.batch), maximumGroup: maximumGroup, maximumCost: maximumCost)
                let taken = Array(state.queue.prefix(count))
                state.queue.removeFirst(count)
                if taken.isEmpty { state.draining = false }
                return taken
            }
            guard !group.isEmpty else { return }
            Recorder(label: "stratus_group_commit_batches", aggregate: true).record(group.count)
            let outcomes = await write(group.map(\.batch))
            for (waiter, outcome) in zip(group, outcomes) {
                waiter.continuation.resume(returning: outcome)
            }
        }
    }
}

/// What the batches of one group share: the change sequence and the zones they touched, read
/// once per group and written back once at its end.
struct PostgresGroupState {
    private(set) var sequence: Int64
    private var zones: [ZoneKey: StoredZone] = [:]
    private var touched: Set<ZoneKey> = []
    private let startSequence: Int64

    /// A field type's key.
    struct FieldKey: Hashable {
        var container: String
        var environment: String
        var recordType: String
        var fieldName: String
    }

    /// Field types read or learned in this group, known present or absent (so later batches need no read).
    var fieldTypes: [FieldKey: String?] = [:]
    /// Quotas read in this group, as the batches so far left them (`.some(nil)`: the account has none).
    var quotas: [DatabaseKey: QuotaRow?] = [:]

    /// Records what a committed batch read and wrote of the schema and the quota.
    mutating func keep(_ writes: BatchWrites, read rows: PostgresBatchRows, of database: DatabaseKey) {
        fieldTypes.merge(rows.types) { _, new in new }
        for field in writes.newFields { fieldTypes[FieldKey(database, field)] = field.type.rawValue }
        if let read = rows.quotaRead { quotas[database] = read }
        if let used = writes.quotaUsed, let quota = quotas[database] ?? nil {
            quotas[database] = QuotaRow(bytes: quota.bytes, used: used)
        }
    }

    init(sequence: Int64) {
        self.sequence = sequence
        self.startSequence = sequence
    }

    /// The live zone, read on first use in the group.
    mutating func zone(_ key: ZoneKey, in tx: PostgresTransaction) async throws -> StoredZone? {
        if let zone = zones[key] { return zone }
        let zone = try await PostgresStore.fetchZone(key, in: tx)
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
    func finish(in tx: PostgresTransaction) async throws {
        guard sequence != startSequence else { return }
        try await tx.setSequence(sequence)
        for key in touched {
            guard let zone = zones[key] else { continue }
            try await tx.execute("UPDATE zones SET last_seq = \(zone.lastSeq), feed_seq = \(zone.lastSeq) WHERE id = \(zone.id)")
        }
    }
}

extension PostgresStore {
    /// Runs the zone batch engine on rows read ahead, reading what it missed and running it
    /// again until it has all it needs (a read per kind of row per round; most batches take one).
    private static func decide(
        _ batch: PreparedBatch, zone: StoredZone, group: PostgresGroupState, in tx: PostgresTransaction
    ) async throws -> (ZoneBatchEngine<PostgresBatchRows>.Decision, PostgresBatchRows) {
        let database = batch.batch.zone.database
        let rows = PostgresBatchRows(zoneID: zone.id, fieldTypes: group.fieldTypes, quota: group.quotas[database])
        try await rows.preload(batch.batch, in: tx)
        while true {
            do {
                return (try ZoneBatchEngine.decide(batch, zone: zone, sequence: group.sequence, rows: rows), rows)
            } catch is BatchRowsMissing {
                guard try await rows.readMissing(in: tx) else { throw StoreError(.failure, "the batch engine asked for nothing it lacked") }
            }
        }
    }

    /// Writes a group of zone batches in one transaction, each inside its own savepoint, so an
    /// atomic batch that fails (or names a missing zone) rolls back alone. At most 64 a group
    /// (``PostgresGroupCommit``), so the nested savepoints stay within PostgreSQL's cached subtransactions.
    static func writeGroup(_ batches: [PreparedBatch], client: PostgresClient, logger: Logger) async -> [Result<ZoneBatchResult, StoreError>] {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let tx = PostgresTransaction(connection: connection, logger: logger)
                var group = PostgresGroupState(sequence: try await tx.lockSequence())
                var results: [Result<ZoneBatchResult, StoreError>] = []
                for batch in batches {
                    try await tx.execute("SAVEPOINT batch")
                    var attempt = group
                    do {
                        let key = batch.batch.zone
                        guard let zone = try await attempt.zone(key, in: tx) else { throw StoreError(.zoneNotFound) }
                        let (decision, rows) = try await decide(batch, zone: zone, group: attempt, in: tx)
                        // A kept batch's savepoint is never released (one round trip fewer a batch,
                        // inside the sequence lock): the next batch's nests inside it, and a rollback
                        // goes to the newest savepoint of the name, its own.
                        if decision.commit {
                            try await PostgresBatchWrites(tx: tx, zoneID: zone.id).write(decision.writes, of: key.database)
                            attempt.keep(decision.writes, read: rows, of: key.database)
                            if decision.sequence != attempt.sequence {
                                attempt.committed(decision.result.zone, key: key, sequence: decision.sequence)
                            }
                            group = attempt
                        } else {
                            try await tx.execute("ROLLBACK TO SAVEPOINT batch")
                        }
                        results.append(.success(decision.result))
                    } catch let error as StoreError {
                        try await tx.execute("ROLLBACK TO SAVEPOINT batch")
                        results.append(.failure(error))
                    }
                }
                try await group.finish(in: tx)
                return results
            }
        } catch {
            let failure = translate(error)
            return batches.map { _ in .failure(failure) }
        }
    }
}

extension PostgresGroupState.FieldKey {
    init(_ database: DatabaseKey, _ field: SchemaField) {
        self.init(
            container: database.container, environment: database.environment.rawValue, recordType: field.recordType, fieldName: field.fieldName
        )
    }
}
