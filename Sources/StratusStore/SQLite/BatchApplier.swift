import Foundation
import GRDB
import StratusModel

/// Applies one zone batch inside an open transaction: checks each write's precondition, writes
/// rows stamped with the next sequence values, and says whether to commit.
struct BatchApplier {
    let db: Database
    let batch: ZoneBatch
    let fieldsJSON: [String]
    let encoder = JSONEncoder()
    let decoder = JSONDecoder()

    init(db: Database, prepared: PreparedBatch) {
        self.db = db
        self.batch = prepared.batch
        self.fieldsJSON = prepared.fieldsJSON
    }

    /// Applies the batch. `group` carries the sequence and the zones across the batches of one
    /// group commit; it is advanced only by a batch that commits.
    func run(in group: inout GroupWriteState) throws -> (result: ZoneBatchResult, commit: Bool) {
        guard var zone = try group.zone(batch.zone, in: db) else { throw StoreError(.zoneNotFound) }
        let schemaFailures = batch.schema.isEmpty ? [:] : try checkSchema()
        let integrityFailures = try integrityFailures(zoneID: zone.id)
        var seq = group.sequence
        let startSeq = seq
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(batch.writes.count)
        var moves: [ParentMove] = []
        var changes: [RecordChange] = []
        var quota = try QuotaLedger.load(for: batch.zone.database, in: db)
        for (position, (write, json)) in zip(batch.writes, fieldsJSON).enumerated() {
            if let reason = schemaFailure(of: write, in: schemaFailures) {
                outcomes.append(.failed(.invalid(reason)))
                continue
            }
            if let failure = integrityFailures[position] {
                outcomes.append(.failed(failure))
                continue
            }
            let delta = try quota?.delta(of: write, fieldsJSON: json, zoneID: zone.id, in: db) ?? 0
            if let quota, !quota.admits(delta) {
                outcomes.append(.failed(.quotaExceeded(quota: quota.bytes)))
                continue
            }
            let outcome = try apply(write, fieldsJSON: json, zoneID: zone.id, seq: &seq, moves: &moves, changes: &changes)
            if case .failed = outcome {} else { quota?.used += delta }
            outcomes.append(outcome)
        }
        if !moves.isEmpty { try recordCoverageChanges(moves, zoneID: zone.id, seq: &seq) }
        if batch.writes.contains(where: { $0.share != nil }) {
            // Creating a share re-stamps its root: answer with the root as it now is.
            outcomes = try outcomes.map { outcome in
                guard case .saved(let record) = outcome,
                    let current = try SQLiteStore.fetchRecord(record.name, zoneID: zone.id, in: db, decoder: decoder)
                else { return outcome }
                return .saved(current)
            }
        }
        let failed = outcomes.contains { if case .failed = $0 { true } else { false } }
        if failed && batch.atomic && zone.atomic {
            let aborted = outcomes.map { outcome -> WriteOutcome in
                if case .failed = outcome { return outcome }
                return .failed(.atomicAborted)
            }
            return (ZoneBatchResult(outcomes: aborted, zone: zone, previousSeq: startSeq), false)
        }
        try quota?.save(in: db)
        if seq != startSeq {
            zone.lastSeq = seq
            group.committed(zone, key: batch.zone, sequence: seq)
        }
        return (ZoneBatchResult(outcomes: outcomes, zone: zone, previousSeq: startSeq, changes: changes), true)
    }

    // MARK: - Writes

    /// `fieldsJSON` is `write.fields` encoded: stored as is wherever the record's fields are exactly those.
    private func apply(
        _ write: RecordWrite, fieldsJSON: String, zoneID: Int64, seq: inout Int64, moves: inout [ParentMove],
        changes: inout [RecordChange]
    ) throws -> WriteOutcome {
        let existing = try SQLiteStore.fetchRecord(write.name, zoneID: zoneID, in: db, decoder: decoder)
        let live = existing?.deleted == false ? existing : nil
        if let creator = write.requiredCreator, let live, live.created.userRecordName != creator {
            return .failed(.permissionDenied)
        }
        if case .changeTag(let tag) = write.precondition {
            guard let live else { return .failed(.notFound) }
            guard live.changeTag == tag else { return .failed(.conflict(live)) }
        }
        let author = batch.author
        let stamp = RecordStamp(timestamp: author.timestamp, userRecordName: author.userRecordName, deviceID: author.deviceID)
        if let share = write.share, write.action != .delete {
            return try applyShare(write, share, live: live, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
        if case .create = write.action, let live { return .failed(.exists(live)) }
        if write.action != .delete, write.action != .leave, let failure = try assetFailure(of: write, live: live, zoneID: zoneID) {
            return .failed(failure)
        }
        switch write.action {
        case .delete:
            guard let record = live else { return .deleted(name: write.name) }
            changes.append(RecordChange(record, kind: .deleted))
            try delete(record, zoneID: zoneID, stamp: stamp, seq: &seq)
            try deleteSources(of: record.name, zoneID: zoneID, stamp: stamp, seq: &seq)
            return .deleted(name: write.name)
        case .leave:
            return try leave(write.name, live: live, zoneID: zoneID, stamp: stamp, seq: &seq)
        case .create:
            if let live { return .failed(.exists(live)) }
            return try insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq, changes: &changes)
        case .save(let replace):
            guard var record = live else {
                return try insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq, changes: &changes)
            }
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
                record.parentName = write.parentName ?? record.parentName
            }
            if record.parentName != oldParent { moves.append(ParentMove(name: record.name, from: oldParent, to: record.parentName)) }
            record.modified = stamp
            record.seq = seq
            if write.createShortGUID, record.shortGUID == nil { record.shortGUID = ShareRules.newShortGUID() }
            try upsert(record, fieldsJSON: replace ? fieldsJSON : nil, zoneID: zoneID)
            try updateReferences(of: record, before: live, zoneID: zoneID)
            try updateAssets(of: record, before: live, zoneID: zoneID)
            changes.append(RecordChange(record, kind: .updated))
            return .saved(record)
        }
    }

    /// Deletes a live record: its tombstone, its DELETE_SELF references, and its share (a
    /// share's rows, or the share of a shared root).
    func delete(_ record: StoredRecord, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws {
        try tombstone(record, zoneID: zoneID, stamp: stamp, seq: &seq)
        try updateReferences(of: nil, before: record, zoneID: zoneID)
        try updateAssets(of: nil, before: record, zoneID: zoneID)
        if ShareNames.isShareType(record.type) {
            try stopSharing(record.name, zoneID: zoneID, stamp: stamp, seq: &seq)
        } else if let shareName = record.shareName {
            // Deleting a shared root deletes its share.
            if let share = try SQLiteStore.fetchRecord(shareName, zoneID: zoneID, in: db, decoder: decoder), !share.deleted {
                try tombstone(share, zoneID: zoneID, stamp: stamp, seq: &seq)
            }
            try stopSharing(shareName, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
    }

    /// Makes a live record a tombstone at the next sequence value.
    func tombstone(_ record: StoredRecord, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws {
        var record = record
        seq += 1
        record.fields = [:]
        record.modified = stamp
        record.seq = seq
        record.deleted = true
        try upsert(record, fieldsJSON: "{}", zoneID: zoneID)
    }

    private func insertNew(
        _ write: RecordWrite, fieldsJSON: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64, changes: inout [RecordChange]
    ) throws -> WriteOutcome {
        guard let type = write.recordType else {
            return .failed(.invalid("record '\(write.name)' does not exist and the operation gives no recordType"))
        }
        seq += 1
        let record = StoredRecord(
            name: write.name, type: type, fields: write.fields, created: stamp, modified: stamp,
            parentName: write.parentName, shortGUID: write.createShortGUID ? ShareRules.newShortGUID() : nil, seq: seq
        )
        try upsert(record, fieldsJSON: fieldsJSON, zoneID: zoneID)
        try updateReferences(of: record, before: nil, zoneID: zoneID)
        try updateAssets(of: record, before: nil, zoneID: zoneID)
        changes.append(RecordChange(record, kind: .created))
        return .saved(record)
    }

    /// Writes the row; `fieldsJSON` is the fields already encoded, or `nil` to encode them here (merges).
    func upsert(_ record: StoredRecord, fieldsJSON: String?, zoneID: Int64) throws {
        let fieldsJSON = try fieldsJSON ?? String(decoding: encoder.encode(record.fields), as: UTF8.self)
        try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO records (zone_id, record_name, record_type, fields, created_at, created_by,
                    created_device, modified_at, modified_by, modified_device, parent_name, share_name, short_guid, seq, deleted)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """
        ).execute(arguments: [
            zoneID, record.name, record.type, fieldsJSON,
            record.created.timestamp, record.created.userRecordName, record.created.deviceID,
            record.modified.timestamp, record.modified.userRecordName, record.modified.deviceID,
            record.parentName, record.shareName, record.shortGUID, record.seq, record.deleted,
        ])
    }

    // MARK: - Schema

    private struct FieldKey: Hashable {
        var recordType: String
        var fieldName: String
    }

    /// Learns the batch's field types; returns the fields whose type conflicts with the schema.
    private func checkSchema() throws -> [FieldKey: String] {
        var failures: [FieldKey: String] = [:]
        let database = batch.zone.database
        for field in batch.schema {
            let known = try String.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT field_type FROM schema_fields
                        WHERE container = ? AND environment = ? AND record_type = ? AND field_name = ?
                        """
                ),
                arguments: [database.container, database.environment.rawValue, field.recordType, field.fieldName]
            )
            let key = FieldKey(recordType: field.recordType, fieldName: field.fieldName)
            if let known {
                if known != field.type.rawValue {
                    failures[key] = "field '\(field.fieldName)' of '\(field.recordType)' has type \(known), not \(field.type.rawValue)"
                }
            } else if batch.schemaMayGrow {
                try db.cachedStatement(
                    sql: """
                        INSERT INTO schema_fields (container, environment, record_type, field_name, field_type)
                        VALUES (?, ?, ?, ?, ?)
                        """
                ).execute(arguments: [
                    database.container, database.environment.rawValue, field.recordType, field.fieldName, field.type.rawValue,
                ])
            } else {
                failures[key] = "field '\(field.fieldName)' is not in the production schema of '\(field.recordType)'"
            }
        }
        return failures
    }

    private func schemaFailure(of write: RecordWrite, in failures: [FieldKey: String]) -> String? {
        guard !failures.isEmpty, let type = write.recordType else { return nil }
        for name in write.fields.keys {
            if let reason = failures[FieldKey(recordType: type, fieldName: name)] { return reason }
        }
        return nil
    }
}
