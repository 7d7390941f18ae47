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
    private var records: [String: BatchRecordRow?] = [:]
    private var sources: [String: [String]] = [:]
    private var childNames: [String: [String]] = [:]
    private var shareRows: [String: ShareRow?] = [:]
    private var sharesByKind: [Bool: [ShareRow]] = [:]
    private var participantLists: [String: [StoredParticipant]] = [:]
    private var accepted: [String: Set<String>] = [:]
    private var types: [FieldTypesRead: [SchemaFieldKey: String]] = [:]
    private var quotas: [DatabaseKey: QuotaRow?] = [:]
    private var uploads: [String: UploadRow?] = [:]
    private var blobs: [String: Bool] = [:]
    private var missing: [Read] = []

    /// A read refused, to make from `base`.
    private enum Read {
        case record(String), sources(String), children(String), share(String), shares(hierarchy: Bool)
        case participants(String), accepted(String), fieldTypes(FieldTypesRead), quota(DatabaseKey)
        case upload(String), blob(String)
    }

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
        let wanted = missing
        missing = []
        for read in wanted {
            switch read {
            case .record(let name): records[name] = .some(try base.record(name))
            case .sources(let target): sources[target] = try base.referenceSources(of: target)
            case .children(let name): childNames[name] = try base.children(of: name)
            case .share(let name): shareRows[name] = .some(try base.share(named: name))
            case .shares(let hierarchy): sharesByKind[hierarchy] = try base.shares(hierarchy: hierarchy)
            case .participants(let share): participantLists[share] = try base.participants(of: share)
            case .accepted(let user): accepted[user] = try base.sharesAccepted(by: user)
            case .fieldTypes(let read): types[read] = try base.fieldTypes(of: read.fields, in: read.database)
            case .quota(let database): quotas[database] = .some(try base.quota(of: database))
            case .upload(let id): uploads[id] = .some(try base.upload(id))
            case .blob(let checksum): blobs[checksum] = try base.blobIsStored(checksum)
            }
        }
        return !wanted.isEmpty
    }

    /// The answer read for `key`, or the read noted and refused.
    private func answer<Key: Hashable, Value>(_ key: Key, in read: [Key: Value], else missed: Read) throws -> Value {
        if let value = read[key] { return value }
        missing.append(missed)
        throw BatchRowsMissing()
    }

    // MARK: - BatchRows

    package func record(_ name: String) throws -> BatchRecordRow? {
        try answer(name, in: records, else: .record(name))
    }

    package func referenceSources(of target: String) throws -> [String] {
        try answer(target, in: sources, else: .sources(target))
    }

    package func children(of name: String) throws -> [String] {
        try answer(name, in: childNames, else: .children(name))
    }

    package func share(named name: String) throws -> ShareRow? {
        try answer(name, in: shareRows, else: .share(name))
    }

    package func shares(hierarchy: Bool) throws -> [ShareRow] {
        try answer(hierarchy, in: sharesByKind, else: .shares(hierarchy: hierarchy))
    }

    package func participants(of share: String) throws -> [StoredParticipant] {
        try answer(share, in: participantLists, else: .participants(share))
    }

    package func sharesAccepted(by user: String) throws -> Set<String> {
        try answer(user, in: accepted, else: .accepted(user))
    }

    package func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String] {
        let read = FieldTypesRead(fields: fields, database: database)
        return try answer(read, in: types, else: .fieldTypes(read))
    }

    package func quota(of database: DatabaseKey) throws -> QuotaRow? {
        try answer(database, in: quotas, else: .quota(database))
    }

    package func upload(_ uploadID: String) throws -> UploadRow? {
        try answer(uploadID, in: uploads, else: .upload(uploadID))
    }

    package func blobIsStored(_ checksum: String) throws -> Bool {
        try answer(checksum, in: blobs, else: .blob(checksum))
    }
}
