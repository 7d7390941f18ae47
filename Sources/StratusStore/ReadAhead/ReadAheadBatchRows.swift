import StratusModel

/// The read-ahead back end's contract — refuse a row not read yet (``BatchRowsMissing``), read it,
/// run the engine again from the start — over any back end, with nothing read ahead at first:
/// every row is refused once, so a batch is decided once more per row it reads, the harshest
/// schedule of reruns a read-ahead back end (PostgreSQL, which preloads what a batch names) can
/// meet. ``decide(_:zone:sequence:over:ids:)`` is its driver.
///
/// The SQLite store runs its group commits through it when asked
/// (`SQLiteStore(batchReading: .readAhead(_:))`), so the store suites hold the engine's rerun path
/// to every rule in each `swift test`, PostgreSQL or not.
package final class ReadAheadBatchRows<Base: BatchRows>: BatchRows {
    private let base: Base
    /// What was read, and what the engine was refused (every kind but the schema and the quota).
    private var memory = BatchRowsMemory()
    private var types: [FieldTypesRead: [SchemaFieldKey: String]] = [:]
    private var quotas: [DatabaseKey: QuotaRow?] = [:]
    private var missingTypes: Set<FieldTypesRead> = []
    private var missingQuotas: Set<DatabaseKey> = []

    private struct FieldTypesRead: Hashable {
        var fields: [SchemaField]
        var database: DatabaseKey
    }

    private init(_ base: Base) {
        self.base = base
    }

    /// Decides `prepared` on rows read from `base` only once the engine asked for them: the engine
    /// runs, is refused the first row not read yet, and runs again once it is read. Any other
    /// error (the base's own) ends it unchanged. Answers the decision and how many runs it took.
    package static func decide(
        _ prepared: PreparedBatch, zone: StoredZone, sequence: Int64, over base: Base, ids: BatchIDs
    ) throws -> (decision: ZoneBatchDecision, runs: Int) {
        let rows = ReadAheadBatchRows(base)
        var runs = 1
        while true {
            if let decision = try BatchRerun.attempt({ try ZoneBatchEngine.decide(prepared, zone: zone, sequence: sequence, rows: rows, ids: ids) }) {
                return (decision, runs)
            }
            guard try rows.readMissing() else { throw BatchRerun.askedForNothing }
            runs += 1
        }
    }

    /// Reads from `base` what the engine was refused since the last call; `false` when nothing was.
    private func readMissing() throws -> Bool {
        let wanted = memory.missing
        let (types, quotas) = (missingTypes, missingQuotas)
        guard !wanted.isEmpty || !types.isEmpty || !quotas.isEmpty else { return false }
        memory.missing = BatchRowsMemory.Missing()
        (missingTypes, missingQuotas) = ([], [])
        for name in wanted.records { memory.records[name] = .some(try base.record(name)) }
        for target in wanted.sources { memory.sources[target] = try base.referenceSources(of: target) }
        for name in wanted.children { memory.children[name] = try base.children(of: name) }
        for name in wanted.shares { memory.shares[name] = .some(try base.share(named: name)) }
        for hierarchy in wanted.sharesByKind { memory.sharesByKind[hierarchy] = try base.shares(hierarchy: hierarchy) }
        for share in wanted.participants { memory.participants[share] = try base.participants(of: share) }
        for user in wanted.accepted { memory.accepted[user] = try base.sharesAccepted(by: user) }
        for id in wanted.uploads { memory.uploads[id] = .some(try base.upload(id)) }
        for checksum in wanted.blobs { memory.blobs[checksum] = try base.blobIsStored(checksum) }
        for read in types { self.types[read] = try base.fieldTypes(of: read.fields, in: read.database) }
        for database in quotas { self.quotas[database] = .some(try base.quota(of: database)) }
        return true
    }

    // MARK: - BatchRows

    package func record(_ name: String) throws -> BatchRecordRow? { try memory.record(name) }

    package func referenceSources(of target: String) throws -> [String] { try memory.referenceSources(of: target) }

    package func children(of name: String) throws -> [String] { try memory.children(of: name) }

    package func share(named name: String) throws -> ShareRow? { try memory.share(named: name) }

    package func shares(hierarchy: Bool) throws -> [ShareRow] { try memory.shares(hierarchy: hierarchy) }

    package func participants(of share: String) throws -> [StoredParticipant] { try memory.participants(of: share) }

    package func sharesAccepted(by user: String) throws -> Set<String> { try memory.sharesAccepted(by: user) }

    package func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String] {
        let read = FieldTypesRead(fields: fields, database: database)
        if let known = types[read] { return known }
        missingTypes.insert(read)
        throw BatchRowsMissing()
    }

    package func quota(of database: DatabaseKey) throws -> QuotaRow? {
        if let known = quotas[database] { return known }
        missingQuotas.insert(database)
        throw BatchRowsMissing()
    }

    package func upload(_ uploadID: String) throws -> UploadRow? { try memory.upload(uploadID) }

    package func blobIsStored(_ checksum: String) throws -> Bool { try memory.blobIsStored(checksum) }
}
