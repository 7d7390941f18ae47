import Foundation
import Logging
import PostgresNIO
import StratusModel
import StratusStore

/// Group commit on PostgreSQL, as on SQLite (``GroupCommitQueue``): zone batches that arrive
/// while this instance's transaction is open are written together in its next one (each in a
/// savepoint, so a failed atomic batch rolls back alone), so N concurrent saves cost one commit
/// and one turn of the writers' lock. The store's ``run()`` drains the queue whenever it is told
/// something waits (one drain at a time).
final class PostgresGroupCommit: Sendable {
    typealias Write = @Sendable ([PreparedBatch]) async -> [GroupCommitQueue.Outcome]

    private let queue: GroupCommitQueue
    private let write: Write
    /// One element each time the queue asks for a drain to start.
    private let drains: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) = AsyncStream.makeStream()

    /// At most 64 batches a group: each is a subtransaction, and PostgreSQL keeps 64 of a
    /// transaction's subtransactions in shared memory before every other snapshot slows down.
    init(maximumGroup: Int = 64, maximumCost: Int = 2_000, write: @escaping Write) {
        self.queue = GroupCommitQueue(maximumGroup: maximumGroup, maximumCost: maximumCost)
        self.write = write
    }

    /// Writes `batch` in the next group and returns its own outcome.
    func submit(_ batch: PreparedBatch) async -> GroupCommitQueue.Outcome {
        await queue.submit(batch) { drains.continuation.yield() }
    }

    /// Drains the queue each time a batch finds no drain running, until cancelled.
    func run() async {
        for await _ in drains.stream { await drain() }
    }

    private func drain() async {
        while true {
            let group = queue.nextGroup()
            let outcomes = await write(group.map(\.batch))
            guard queue.finish(group, with: outcomes) else { return }
        }
    }
}

/// What the batches of one PostgreSQL group share beyond ``GroupCommitState``: the schema types
/// and quotas read so far, so a later batch of the group reads them no more.
struct PostgresGroupCaches {
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
}

extension PostgresStore {
    /// Runs the zone batch engine on rows read ahead, reading what it missed and running it
    /// again until it has all it needs (a read per kind of row per round; most batches take one).
    private static func decide(
        _ batch: PreparedBatch, zone: StoredZone, sequence: Int64, caches: PostgresGroupCaches, in tx: PostgresTransaction
    ) async throws -> (ZoneBatchDecision, PostgresBatchRows) {
        let database = batch.batch.zone.database
        let rows = PostgresBatchRows(zoneID: zone.id, fieldTypes: caches.fieldTypes, quota: caches.quotas[database])
        try await rows.preload(batch.batch, in: tx)
        while true {
            if let decision = try BatchRerun.attempt({ try ZoneBatchEngine.decide(batch, zone: zone, sequence: sequence, rows: rows, ids: .random) }) {
                return (decision, rows)
            }
            guard try await rows.readMissing(in: tx) else { throw BatchRerun.askedForNothing }
        }
    }

    /// Writes a group of zone batches in one transaction, each inside its own savepoint, so an
    /// atomic batch that fails (or names a missing zone) rolls back alone. At most 64 a group
    /// (``PostgresGroupCommit``), so the nested savepoints stay within PostgreSQL's cached subtransactions.
    static func writeGroup(_ batches: [PreparedBatch], client: PostgresClient, logger: Logger) async -> [Result<ZoneBatchResult, StoreError>] {
        do {
            return try await client.withTransaction(logger: logger) { connection in
                let tx = PostgresTransaction(connection: connection, logger: logger)
                var group = GroupCommitState(sequence: try await tx.lockSequence())
                var caches = PostgresGroupCaches()
                var results: [Result<ZoneBatchResult, StoreError>] = []
                for batch in batches {
                    try await tx.execute("SAVEPOINT batch")
                    do {
                        let key = batch.batch.zone
                        var found = group.zone(key)
                        if found == nil { found = try await fetchZone(key, in: tx) }
                        guard let zone = found else { throw StoreError(.zoneNotFound) }
                        group.remember(zone, as: key)
                        let (decision, rows) = try await decide(batch, zone: zone, sequence: group.sequence, caches: caches, in: tx)
                        // A kept batch's savepoint is never released (one round trip fewer a batch,
                        // inside the sequence lock): the next batch's nests inside it, and a rollback
                        // goes to the newest savepoint of the name, its own.
                        if decision.commit {
                            try await PostgresBatchWrites(tx: tx, zoneID: zone.id).write(decision.writes, of: key.database)
                            caches.keep(decision.writes, read: rows, of: key.database)
                            if decision.sequence != group.sequence {
                                group.committed(decision.result.zone, key: key, sequence: decision.sequence)
                            }
                        } else {
                            try await tx.execute("ROLLBACK TO SAVEPOINT batch")
                        }
                        results.append(.success(decision.result))
                    } catch let error as StoreError {
                        try await tx.execute("ROLLBACK TO SAVEPOINT batch")
                        results.append(.failure(error))
                    }
                }
                if let changes = group.changes {
                    try await tx.setSequence(changes.sequence)
                    for zone in changes.zones {
                        try await tx.execute("UPDATE zones SET last_seq = \(zone.lastSeq), feed_seq = \(zone.lastSeq) WHERE id = \(zone.id)")
                    }
                }
                return results
            }
        } catch {
            let failure = translate(error)
            return batches.map { _ in .failure(failure) }
        }
    }
}

extension PostgresGroupCaches.FieldKey {
    init(_ database: DatabaseKey, _ field: SchemaField) {
        self.init(
            container: database.container, environment: database.environment.rawValue, recordType: field.recordType, fieldName: field.fieldName
        )
    }
}
