import Foundation
import GRDB
import StratusModel

extension SQLiteStore {
    public func apply(_ batch: ZoneBatch) async throws(StoreError) -> ZoneBatchResult {
        // Fields are encoded here, on the caller's task and in parallel with other requests,
        // not inside the serialized write.
        let prepared: PreparedBatch
        do {
            prepared = try PreparedBatch(batch)
        } catch {
            throw StoreError(.failure, "cannot encode fields: \(error)")
        }
        let outcome = await groupCommit.submit(prepared) { batches in await self.write(group: batches) }
        return try outcome.get()
    }

    /// Writes a group of zone batches in one transaction, each inside its own savepoint so an
    /// atomic batch that fails (or a missing zone) rolls back alone.
    private func write(group batches: [PreparedBatch]) async -> [Result<ZoneBatchResult, StoreError>] {
        do {
            return try await writer.writeWithoutTransaction { db in
                var results: [Result<ZoneBatchResult, StoreError>] = []
                results.reserveCapacity(batches.count)
                try db.inTransaction(.immediate) {
                    for batch in batches {
                        var result: Result<ZoneBatchResult, StoreError> = .failure(StoreError(.failure, "batch produced no result"))
                        do {
                            try db.inSavepoint {
                                let applied = try BatchApplier(db: db, prepared: batch).run()
                                result = .success(applied.result)
                                return applied.commit ? .commit : .rollback
                            }
                        } catch let error as StoreError {
                            result = .failure(error)
                        }
                        results.append(result)
                    }
                    return .commit
                }
                return results
            }
        } catch {
            let failure = SQLiteStore.translate(error)
            return batches.map { _ in .failure(failure) }
        }
    }

    public func records(named names: [String], in zone: ZoneKey) async throws(StoreError) -> [StoredRecord?] {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            let decoder = JSONDecoder()
            return try names.map { name in
                let record = try SQLiteStore.fetchRecord(name, zoneID: stored.id, in: db, decoder: decoder)
                return record?.deleted == false ? record : nil
            }
        }
    }

    public func changes(
        in zone: ZoneKey, generation: Int64?, after seq: Int64, recordTypes: [String]?, limit: Int
    ) async throws(StoreError) -> ZoneChangePage {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { throw StoreError(.zoneNotFound) }
            if let generation, generation != stored.id || seq < stored.compactedBelowSeq {
                throw StoreError(.tokenExpired)
            }
            var sql = "SELECT \(SQLiteStore.recordColumns) FROM records WHERE zone_id = ? AND seq > ?"
            var arguments: StatementArguments = [stored.id, seq]
            if let recordTypes {
                sql += " AND record_type IN (\(databaseQuestionMarks(count: recordTypes.count)))"
                arguments += StatementArguments(recordTypes)
            }
            sql += " ORDER BY seq LIMIT ?"
            arguments += [limit + 1]
            let decoder = JSONDecoder()
            var records: [StoredRecord] = []
            records.reserveCapacity(min(limit + 1, 256))
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                records.append(try SQLiteStore.record(from: row, decoder: decoder))
            }
            if records.count > limit {
                records.removeLast()
                return ZoneChangePage(records: records, throughSeq: records.last?.seq ?? seq, moreComing: true, zone: stored)
            }
            return ZoneChangePage(records: records, throughSeq: max(stored.lastSeq, seq), moreComing: false, zone: stored)
        }
    }

    static func fetchRecord(_ name: String, zoneID: Int64, in db: Database, decoder: JSONDecoder) throws -> StoredRecord? {
        let statement = try db.cachedStatement(
            sql: "SELECT \(recordColumns) FROM records WHERE zone_id = ? AND record_name = ?"
        )
        guard let row = try Row.fetchOne(statement, arguments: [zoneID, name]) else { return nil }
        return try record(from: row, decoder: decoder)
    }
}

/// Applies one zone batch inside an open transaction: checks each write's precondition, writes
/// rows stamped with the next sequence values, and says whether to commit.
/// A zone batch with each write's fields already encoded as the JSON the store keeps.
struct PreparedBatch: Sendable {
    let batch: ZoneBatch
    let fieldsJSON: [String]

    init(_ batch: ZoneBatch) throws {
        let encoder = JSONEncoder()
        self.batch = batch
        self.fieldsJSON = try batch.writes.map { write in
            write.fields.isEmpty ? "{}" : String(decoding: try encoder.encode(write.fields), as: UTF8.self)
        }
    }
}

private struct BatchApplier {
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

    func run() throws -> (result: ZoneBatchResult, commit: Bool) {
        guard var zone = try SQLiteStore.fetchZone(batch.zone, in: db) else { throw StoreError(.zoneNotFound) }
        let schemaFailures = try checkSchema()
        var seq = try SQLiteStore.currentSequence(in: db)
        let startSeq = seq
        var outcomes: [WriteOutcome] = []
        outcomes.reserveCapacity(batch.writes.count)
        for (write, json) in zip(batch.writes, fieldsJSON) {
            if let reason = schemaFailure(of: write, in: schemaFailures) {
                outcomes.append(.failed(.invalid(reason)))
                continue
            }
            outcomes.append(try apply(write, fieldsJSON: json, zoneID: zone.id, seq: &seq))
        }
        let failed = outcomes.contains { if case .failed = $0 { true } else { false } }
        if failed && batch.atomic && zone.atomic {
            let aborted = outcomes.map { outcome -> WriteOutcome in
                if case .failed = outcome { return outcome }
                return .failed(.atomicAborted)
            }
            return (ZoneBatchResult(outcomes: aborted, zone: zone), false)
        }
        if seq != startSeq {
            try SQLiteStore.setSequence(seq, in: db)
            try db.cachedStatement(sql: "UPDATE zones SET last_seq = ?, feed_seq = ? WHERE id = ?")
                .execute(arguments: [seq, seq, zone.id])
            zone.lastSeq = seq
        }
        return (ZoneBatchResult(outcomes: outcomes, zone: zone), true)
    }

    // MARK: - Writes

    /// `fieldsJSON` is `write.fields` encoded: stored as is wherever the record's fields are exactly those.
    private func apply(_ write: RecordWrite, fieldsJSON: String, zoneID: Int64, seq: inout Int64) throws -> WriteOutcome {
        let existing = try SQLiteStore.fetchRecord(write.name, zoneID: zoneID, in: db, decoder: decoder)
        let live = existing?.deleted == false ? existing : nil
        if case .changeTag(let tag) = write.precondition {
            guard let live else { return .failed(.notFound) }
            guard live.changeTag == tag else { return .failed(.conflict(live)) }
        }
        let author = batch.author
        let stamp = RecordStamp(timestamp: author.timestamp, userRecordName: author.userRecordName, deviceID: author.deviceID)
        switch write.action {
        case .delete:
            guard var record = live else { return .deleted(name: write.name) }
            seq += 1
            record.fields = [:]
            record.modified = stamp
            record.seq = seq
            record.deleted = true
            try upsert(record, fieldsJSON: "{}", zoneID: zoneID)
            return .deleted(name: write.name)
        case .create:
            if let live { return .failed(.exists(live)) }
            return try insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq)
        case .save(let replace):
            guard var record = live else {
                return try insertNew(write, fieldsJSON: fieldsJSON, zoneID: zoneID, stamp: stamp, seq: &seq)
            }
            if let type = write.recordType, type != record.type {
                return .failed(.invalid("record '\(write.name)' has type '\(record.type)', not '\(type)'"))
            }
            seq += 1
            if replace {
                record.fields = write.fields
                record.parentName = write.parentName
            } else {
                record.fields.merge(write.fields) { _, new in new }
                record.parentName = write.parentName ?? record.parentName
            }
            record.modified = stamp
            record.seq = seq
            try upsert(record, fieldsJSON: replace ? fieldsJSON : nil, zoneID: zoneID)
            return .saved(record)
        }
    }

    private func insertNew(_ write: RecordWrite, fieldsJSON: String, zoneID: Int64, stamp: RecordStamp, seq: inout Int64) throws -> WriteOutcome {
        guard let type = write.recordType else {
            return .failed(.invalid("record '\(write.name)' does not exist and the operation gives no recordType"))
        }
        seq += 1
        let record = StoredRecord(
            name: write.name, type: type, fields: write.fields, created: stamp, modified: stamp,
            parentName: write.parentName, seq: seq
        )
        try upsert(record, fieldsJSON: fieldsJSON, zoneID: zoneID)
        return .saved(record)
    }

    /// Writes the row; `fieldsJSON` is the fields already encoded, or `nil` to encode them here (merges).
    private func upsert(_ record: StoredRecord, fieldsJSON: String?, zoneID: Int64) throws {
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
