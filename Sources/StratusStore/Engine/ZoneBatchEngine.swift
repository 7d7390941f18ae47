import Foundation
import StratusModel

/// What the zone batch engine decided for a batch: the answer, and the rows to write.
package struct ZoneBatchDecision {
    package var result: ZoneBatchResult
    /// Whether to write ``writes`` (an atomic batch with a failed write writes nothing).
    package var commit: Bool
    package var writes: BatchWrites
    /// The change sequence after the batch.
    package var sequence: Int64
}

/// CloudKit's rules for one zone batch, written once for every back end: preconditions and
/// change tags, the public database's security roles (``WriteRights``), creates, merges and
/// replaces, tombstones, schema types, parent and reference integrity, `DELETE_SELF` cascades,
/// shares and their participants, hierarchy coverage, quotas, asset receipts, and the changes
/// push delivery matches. It reads the zone through
/// ``BatchRows``, keeps what it writes in ``BatchWrites`` (reading those first), and decides:
/// the outcome of each write, whether the batch commits, and the rows to write. It does no I/O,
/// so the same decision comes from the same rows on SQLite and on PostgreSQL.
package struct ZoneBatchEngine<Rows: BatchRows> {
    let rows: Rows
    let batch: ZoneBatch
    let fieldsJSON: [String]
    let zone: StoredZone
    /// Where new participant IDs and short GUIDs come from (the engine makes none itself).
    let ids: BatchIDs
    var writes = BatchWrites()
    /// The last sequence value handed out (each change takes the next).
    var seq: Int64
    var moves: [ParentMove] = []
    var changes: [RecordChange] = []

    /// Decides `prepared` against `zone` (live), whose changes take sequence values above
    /// `sequence`, with new identifiers from `ids`.
    package static func decide(_ prepared: PreparedBatch, zone: StoredZone, sequence: Int64, rows: Rows, ids: BatchIDs) throws -> ZoneBatchDecision {
        var engine = ZoneBatchEngine(rows: rows, batch: prepared.batch, fieldsJSON: prepared.fieldsJSON, zone: zone, ids: ids, seq: sequence)
        return try engine.run()
    }

    private mutating func run() throws -> ZoneBatchDecision {
        var zone = self.zone
        let schemaFailures = batch.schema.isEmpty ? [:] : try checkSchema()
        let integrityFailures = try integrityFailures()
        let startSeq = seq
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(batch.writes.count)
        let database = batch.zone.database
        var quota = database.scope == .private ? try rows.quota(of: database) : nil
        for (position, (write, json)) in zip(batch.writes, fieldsJSON).enumerated() {
            if let reason = schemaFailure(of: write, in: schemaFailures) {
                outcomes.append(.failed(.invalid(reason)))
                continue
            }
            if let failure = integrityFailures[position] {
                outcomes.append(.failed(failure))
                continue
            }
            let delta = quota == nil ? 0 : try quotaDelta(of: write, fieldsJSON: json)
            if let quota, delta > 0, quota.used + delta > quota.bytes {
                outcomes.append(.failed(.quotaExceeded(quota: quota.bytes)))
                continue
            }
            let outcome = try apply(write, fieldsJSON: json)
            if case .failed = outcome {} else { quota?.used += delta }
            outcomes.append(outcome)
        }
        if !moves.isEmpty { try recordCoverageChanges() }
        if batch.writes.contains(where: { $0.share != nil }) {
            // Creating a share re-stamps its root: answer with the root as it now is.
            outcomes = try outcomes.map { outcome in
                guard case .saved(let record) = outcome, let current = try self.record(record.name) else { return outcome }
                return .saved(current)
            }
        }
        let failed = outcomes.contains { if case .failed = $0 { true } else { false } }
        if failed && batch.atomic && zone.atomic {
            let aborted = outcomes.map { outcome -> WriteOutcome in
                if case .failed = outcome { return outcome }
                return .failed(.atomicAborted)
            }
            let result = ZoneBatchResult(outcomes: aborted, zone: zone, previousSeq: startSeq)
            return ZoneBatchDecision(result: result, commit: false, writes: BatchWrites(), sequence: startSeq)
        }
        if let quota { writes.quotaUsed = max(quota.used, 0) }
        if seq != startSeq { zone.lastSeq = seq }
        let result = ZoneBatchResult(outcomes: outcomes, zone: zone, previousSeq: startSeq, changes: changes)
        return ZoneBatchDecision(result: result, commit: true, writes: writes, sequence: seq)
    }

    // MARK: - Writes

    /// `fieldsJSON` is `write.fields` encoded: stored as is wherever the record's fields are exactly those.
    private mutating func apply(_ write: RecordWrite, fieldsJSON: String) throws -> WriteOutcome {
        let live = try liveRecord(write.name)
        if let rights = batch.rights, let refusal = rights.refusal(of: write, live: live, author: batch.author.userRecordName) {
            return .failed(refusal)
        }
        if case .changeTag(let tag) = write.precondition {
            guard let live else { return .failed(.notFound) }
            guard live.changeTag == tag else { return .failed(.conflict(live)) }
        }
        let author = batch.author
        let stamp = RecordStamp(timestamp: author.timestamp, userRecordName: author.userRecordName, deviceID: author.deviceID)
        if let share = write.share, write.action != .delete {
            return try applyShare(write, share, live: live, stamp: stamp)
        }
        if case .create = write.action, let live { return .failed(.exists(live)) }
        if write.action != .delete, write.action != .leave, let failure = try assetFailure(of: write, live: live) {
            return .failed(failure)
        }
        switch write.action {
        case .delete:
            guard let record = live else { return .deleted(name: write.name) }
            changes.append(RecordChange(record, kind: .deleted))
            try delete(record, stamp: stamp)
            try deleteSources(of: record.name, stamp: stamp)
            return .deleted(name: write.name)
        case .leave:
            return try leave(write.name, live: live, stamp: stamp)
        case .create:
            return try insertNew(write, fieldsJSON: fieldsJSON, stamp: stamp)
        case .save(let replace):
            guard var record = live else { return try insertNew(write, fieldsJSON: fieldsJSON, stamp: stamp) }
            if let type = write.recordType, type != record.type {
                return .failed(.invalid("record '\(write.name)' has type '\(record.type)', not '\(type)'"))
            }
            seq += 1
            let oldParent = record.parentName
            if replace {
                record.fields = write.fields
                record.parentName = write.parentName
            } else {
                record.fields.merge(write.fields) { _, new in new }
                for name in write.clearedFields { record.fields.removeValue(forKey: name) }
                record.parentName = write.clearsParent ? nil : (write.parentName ?? record.parentName)
            }
            if record.parentName != oldParent { moves.append(ParentMove(name: record.name, from: oldParent, to: record.parentName)) }
            record.modified = stamp
            record.seq = seq
            if write.createShortGUID, record.shortGUID == nil { record.shortGUID = ids.shortGUID() }
            try upsert(record, fieldsJSON: replace ? fieldsJSON : nil)
            updateReferences(of: record, before: live)
            updateAssets(of: record, before: live)
            changes.append(RecordChange(record, kind: .updated))
            return .saved(record)
        }
    }

    /// Deletes a live record: its tombstone, its DELETE_SELF references, and its share (a
    /// share's rows, or the share of a shared root).
    mutating func delete(_ record: StoredRecord, stamp: RecordStamp) throws {
        try tombstone(record, stamp: stamp)
        updateReferences(of: nil, before: record)
        updateAssets(of: nil, before: record)
        if ShareNames.isShareType(record.type) {
            try stopSharing(record.name, stamp: stamp)
        } else if let shareName = record.shareName {
            // Deleting a shared root deletes its share.
            if let share = try liveRecord(shareName) { try tombstone(share, stamp: stamp) }
            try stopSharing(shareName, stamp: stamp)
        }
    }

    /// Makes a live record a tombstone at the next sequence value.
    mutating func tombstone(_ record: StoredRecord, stamp: RecordStamp) throws {
        var record = record
        seq += 1
        record.fields = [:]
        record.modified = stamp
        record.seq = seq
        record.deleted = true
        try upsert(record, fieldsJSON: "{}")
    }

    private mutating func insertNew(_ write: RecordWrite, fieldsJSON: String, stamp: RecordStamp) throws -> WriteOutcome {
        guard let type = write.recordType else {
            return .failed(.invalid("record '\(write.name)' does not exist and the operation gives no recordType"))
        }
        seq += 1
        let record = StoredRecord(
            name: write.name, type: type, fields: write.fields, created: stamp, modified: stamp,
            parentName: write.parentName, shortGUID: write.createShortGUID ? ids.shortGUID() : nil, seq: seq
        )
        try upsert(record, fieldsJSON: fieldsJSON)
        updateReferences(of: record, before: nil)
        updateAssets(of: record, before: nil)
        changes.append(RecordChange(record, kind: .created))
        return .saved(record)
    }

    /// Keeps the row as the batch leaves it; `fieldsJSON` is its fields already encoded, or
    /// `nil` to encode them here (merges).
    mutating func upsert(_ record: StoredRecord, fieldsJSON: String?) throws {
        let json = try fieldsJSON ?? StoredFields.encode(record.fields)
        writes.records[record.name] = BatchWrites.WrittenRecord(record: record, json: json)
    }

    // MARK: - Schema

    /// Learns the batch's field types (where the schema may grow); returns the fields whose type
    /// conflicts with the schema, or that a locked schema lacks.
    private mutating func checkSchema() throws -> [SchemaFieldKey: String] {
        var known = try rows.fieldTypes(of: batch.schema, in: batch.zone.database)
        var failures: [SchemaFieldKey: String] = [:]
        for field in batch.schema {
            let key = SchemaFieldKey(field)
            if let type = known[key] {
                if type != field.type.rawValue {
                    failures[key] = "field '\(field.fieldName)' of '\(field.recordType)' has type \(type), not \(field.type.rawValue)"
                }
            } else if batch.schemaMayGrow {
                writes.newFields.append(field)
                known[key] = field.type.rawValue
            } else {
                failures[key] = "field '\(field.fieldName)' is not in the production schema of '\(field.recordType)'"
            }
        }
        return failures
    }

    private func schemaFailure(of write: RecordWrite, in failures: [SchemaFieldKey: String]) -> String? {
        guard !failures.isEmpty, let type = write.recordType else { return nil }
        for name in write.fields.keys {
            if let reason = failures[SchemaFieldKey(recordType: type, fieldName: name)] { return reason }
        }
        return nil
    }

    // MARK: - Quota

    /// The bytes a write adds (negative when it frees some); a merge is counted at most.
    private func quotaDelta(of write: RecordWrite, fieldsJSON: String) throws -> Int64 {
        let new = Int64(fieldsJSON.utf8.count)
        switch write.action {
        case .leave: return 0
        case .create: return new
        case .delete: return -(try liveBytes(of: write.name))
        case .save(let replace): return replace ? new - (try liveBytes(of: write.name)) : new
        }
    }
}

/// A record that changed parent in a batch.
struct ParentMove {
    var name: String
    var from: String?
    var to: String?
}
