import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Applies one zone batch inside an open transaction, as the SQLite store's `BatchApplier`
/// does: checks each write's precondition, writes rows stamped with the next sequence values,
/// and says whether to commit.
struct PostgresBatchApplier {
    let tx: PostgresTransaction
    let batch: ZoneBatch
    let fieldsJSON: [String]
    /// The zone's rows as this batch reads and writes them (set once the zone is known).
    let buffer: PostgresRecordBuffer

    init(tx: PostgresTransaction, prepared: PreparedBatch, zoneID: Int64) {
        self.tx = tx
        self.batch = prepared.batch
        self.fieldsJSON = prepared.fieldsJSON
        self.buffer = PostgresRecordBuffer(zoneID: zoneID)
    }

    /// The row of `name` as the batch left it (tombstones included).
    func row(_ name: String) async throws -> StoredRecord? {
        try await buffer.record(name, in: tx)
    }

    /// Applies the batch; `group` is advanced only by a batch that commits.
    func run(zone stored: StoredZone, in group: inout PostgresGroupState) async throws -> (result: ZoneBatchResult, commit: Bool) {
        var zone = stored
        let schemaFailures = batch.schema.isEmpty ? [:] : try await checkSchema(in: &group)
        let integrityFailures = try await integrityFailures(zoneID: zone.id)
        var seq = group.sequence
        let startSeq = seq
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(batch.writes.count)
        var moves: [PostgresParentMove] = []
        var changes: [RecordChange] = []
        var quota = try await group.quota(for: batch.zone.database, in: tx)
        try await buffer.preload(Set(batch.writes.map(\.name)), in: tx)
        for (position, (write, json)) in zip(batch.writes, fieldsJSON).enumerated() {
            if let reason = schemaFailure(of: write, in: schemaFailures) {
                outcomes.append(.failed(.invalid(reason)))
                continue
            }
            if let failure = integrityFailures[position] {
                outcomes.append(.failed(failure))
                continue
            }
            if quota != nil { try await buffer.flush(in: tx) }  // the ledger reads stored sizes
            let delta = try await quota?.delta(of: write, fieldsJSON: json, zoneID: zone.id, in: tx) ?? 0
            if let quota, !quota.admits(delta) {
                outcomes.append(.failed(.quotaExceeded(quota: quota.bytes)))
                continue
            }
            let outcome = try await apply(write, fieldsJSON: json, zoneID: zone.id, seq: &seq, moves: &moves, changes: &changes)
            if case .failed = outcome {} else { quota?.used += delta }
            outcomes.append(outcome)
        }
        if !moves.isEmpty {
            try await buffer.flush(in: tx)  // coverage walks the hierarchy in SQL
            try await recordCoverageChanges(moves, zoneID: zone.id, seq: &seq)
        }
        if batch.writes.contains(where: { $0.share != nil }) {
            // Creating a share re-stamps its root: answer with the root as it now is.
            var current: [WriteOutcome] = []
            for outcome in outcomes {
                guard case .saved(let record) = outcome, let now = try await row(record.name)
                else {
                    current.append(outcome)
                    continue
                }
                current.append(.saved(now))
            }
            outcomes = current
        }
        let failed = outcomes.contains { if case .failed = $0 { true } else { false } }
        if failed && batch.atomic && zone.atomic {
            let aborted = outcomes.map { outcome -> WriteOutcome in
                if case .failed = outcome { return outcome }
                return .failed(.atomicAborted)
            }
            return (ZoneBatchResult(outcomes: aborted, zone: zone, previousSeq: startSeq), false)
        }
        try await buffer.flush(in: tx)
        try await quota?.save(in: tx)
        group.keep(quota, for: batch.zone.database)
        if seq != startSeq {
            zone.lastSeq = seq
            group.committed(zone, key: batch.zone, sequence: seq)
        }
        return (ZoneBatchResult(outcomes: outcomes, zone: zone, previousSeq: startSeq, changes: changes), true)
    }

    // MARK: - Writes

    private func apply(
        _ write: RecordWrite, fieldsJSON: String, zoneID: Int64, seq: inout Int64, moves: inout [PostgresParentMove],
        changes: inout [RecordChange]
    ) async throws -> WriteOutcome {
        let existing = try await row(write.name)
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
            return try await applyShare(write, share, live: live, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
        if case .create = write.action, let live { return .failed(.exists(live)) }
        if write.action != .delete, write.action != .leave, let failure = try await assetFailure(of: write, live: live, zoneID: zoneID) {
            return .failed(failure)
        }
        switch write.action {
        case .delete:
            guard let record = live else { return .deleted(name: write.name) }
            changes.append(RecordChange(record, kind: .deleted))
            try await delete(record, zoneID: zoneID, stamp: stamp, seq: &seq)
            try await deleteSources(of: record.name, zoneID: zoneID, stamp: stamp, seq: &seq)
            return .deleted(name: write.name)
        case .leave:
            return try await leave(write.name, live: live, zoneID: zoneID, stamp: stamp, seq: &seq)
        case .create:
            if let live { return .failed(.exists(live)) }
            return try await insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq, changes: &changes)
        case .save(let replace):
            guard var record = live else {
                return try await insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq, changes: &changes)
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
            if record.parentName != oldParent { moves.append(PostgresParentMove(name: record.name, from: oldParent, to: record.parentName)) }
            record.modified = stamp
            record.seq = seq
            if write.createShortGUID, record.shortGUID == nil { record.shortGUID = ShareRules.newShortGUID() }
            try await upsert(record, fieldsJSON: replace ? fieldsJSON : nil, zoneID: zoneID)
            try await updateReferences(of: record, before: live, zoneID: zoneID)
            try await updateAssets(of: record, before: live, zoneID: zoneID)
            changes.append(RecordChange(record, kind: .updated))
            return .saved(record)
        }
    }

    /// Deletes a live record: its tombstone, its DELETE_SELF references, and its share.
    func delete(_ record: StoredRecord, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) async throws {
        try await tombstone(record, zoneID: zoneID, stamp: stamp, seq: &seq)
        try await updateReferences(of: nil, before: record, zoneID: zoneID)
        try await updateAssets(of: nil, before: record, zoneID: zoneID)
        if ShareNames.isShareType(record.type) {
            try await stopSharing(record.name, zoneID: zoneID, stamp: stamp, seq: &seq)
        } else if let shareName = record.shareName {
            // Deleting a shared root deletes its share.
            if let share = try await row(shareName), !share.deleted {
                try await tombstone(share, zoneID: zoneID, stamp: stamp, seq: &seq)
            }
            try await stopSharing(shareName, zoneID: zoneID, stamp: stamp, seq: &seq)
        }
    }

    /// Makes a live record a tombstone at the next sequence value.
    func tombstone(_ record: StoredRecord, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) async throws {
        var record = record
        seq += 1
        record.fields = [:]
        record.modified = stamp
        record.seq = seq
        record.deleted = true
        try await upsert(record, fieldsJSON: "{}", zoneID: zoneID)
    }

    private func insertNew(
        _ write: RecordWrite, fieldsJSON: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64, changes: inout [RecordChange]
    ) async throws -> WriteOutcome {
        guard let type = write.recordType else {
            return .failed(.invalid("record '\(write.name)' does not exist and the operation gives no recordType"))
        }
        seq += 1
        let record = StoredRecord(
            name: write.name, type: type, fields: write.fields, created: stamp, modified: stamp,
            parentName: write.parentName, shortGUID: write.createShortGUID ? ShareRules.newShortGUID() : nil, seq: seq
        )
        try await upsert(record, fieldsJSON: fieldsJSON, zoneID: zoneID)
        try await updateReferences(of: record, before: nil, zoneID: zoneID)
        try await updateAssets(of: record, before: nil, zoneID: zoneID)
        changes.append(RecordChange(record, kind: .created))
        return .saved(record)
    }

    /// Keeps the row for the batch's write; `fieldsJSON` is the fields already encoded, or `nil`
    /// to encode them here (merges).
    func upsert(_ record: StoredRecord, fieldsJSON: String?, zoneID: Int64) async throws {
        try buffer.write(record, json: fieldsJSON)
    }

    // MARK: - Schema

    private struct FieldKey: Hashable {
        var recordType: String
        var fieldName: String
    }

    /// Learns the batch's field types; returns the fields whose type conflicts with the schema.
    /// Types the group already read are not read again; the rest are read in one statement, and
    /// new ones (where the schema may grow) written in one.
    private func checkSchema(in group: inout PostgresGroupState) async throws -> [FieldKey: String] {
        let database = batch.zone.database
        let (container, environment) = (database.container, database.environment.rawValue)
        func key(_ field: SchemaField) -> PostgresGroupState.FieldKey {
            PostgresGroupState.FieldKey(container: container, environment: environment, recordType: field.recordType, fieldName: field.fieldName)
        }
        let unknown = batch.schema.filter { group.fieldTypes[key($0)] == nil }
        if !unknown.isEmpty {
            let rows = try await tx.all("""
                SELECT record_type, field_name, field_type FROM schema_fields WHERE container = \(container) AND environment = \(environment)
                    AND (record_type, field_name) IN (SELECT * FROM unnest(\(unknown.map(\.recordType))::text[], \(unknown.map(\.fieldName))::text[]))
                """) { try $0.decode((String, String, String).self) }
            for (recordType, fieldName, type) in rows {
                group.fieldTypes[.init(container: container, environment: environment, recordType: recordType, fieldName: fieldName)] = type
            }
            let new = unknown.filter { group.fieldTypes[key($0)] == nil }
            if batch.schemaMayGrow, !new.isEmpty {
                try await tx.execute("""
                    INSERT INTO schema_fields (container, environment, record_type, field_name, field_type)
                    SELECT \(container), \(environment), t, f, y
                    FROM unnest(\(new.map(\.recordType))::text[], \(new.map(\.fieldName))::text[], \(new.map(\.type.rawValue))::text[]) AS n(t, f, y)
                    ON CONFLICT DO NOTHING
                    """)
                for field in new { group.fieldTypes[key(field)] = field.type.rawValue }
            }
        }
        var failures: [FieldKey: String] = [:]
        for field in batch.schema {
            let failureKey = FieldKey(recordType: field.recordType, fieldName: field.fieldName)
            if let known = group.fieldTypes[key(field)] {
                if known != field.type.rawValue {
                    failures[failureKey] = "field '\(field.fieldName)' of '\(field.recordType)' has type \(known), not \(field.type.rawValue)"
                }
            } else {
                failures[failureKey] = "field '\(field.fieldName)' is not in the production schema of '\(field.recordType)'"
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
