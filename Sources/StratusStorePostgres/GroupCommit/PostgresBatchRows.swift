import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// The zone batch engine's reads (``BatchRows``) on PostgreSQL, where every read is a round
/// trip: answered from rows read ahead, a whole kind at a time. ``preload(_:quotas:fieldTypes:in:)``
/// reads what a batch names before the engine runs (its records and their ancestors, schema
/// types, the quota, its receipts); a read the engine makes beyond that is noted and refused
/// (``BatchRowsMissing``), and ``readMissing(in:)`` reads everything noted in one statement a
/// kind, for the driver to run the engine again.
final class PostgresBatchRows: BatchRows {
    let zoneID: Int64
    /// What this batch read of the zone, and what the engine was refused.
    private var memory = BatchRowsMemory()
    /// The schema's types, known present or absent, kept by the group across its batches.
    private(set) var types: [PostgresGroupCaches.FieldKey: String?]
    private var quotaRow: QuotaRow??
    /// The quota as read for this batch (`nil` when the group knew it already).
    private(set) var quotaRead: QuotaRow??

    /// Ancestors read with each record, so a parent chain costs one round, not one per level.
    static let ancestorsRead = 64

    init(zoneID: Int64, fieldTypes: [PostgresGroupCaches.FieldKey: String?], quota: QuotaRow??) {
        self.zoneID = zoneID
        self.types = fieldTypes
        self.quotaRow = quota
    }

    // MARK: - BatchRows

    func record(_ name: String) throws -> BatchRecordRow? { try memory.record(name) }

    func referenceSources(of target: String) throws -> [String] { try memory.referenceSources(of: target) }

    func children(of name: String) throws -> [String] { try memory.children(of: name) }

    func share(named name: String) throws -> ShareRow? { try memory.share(named: name) }

    func shares(hierarchy: Bool) throws -> [ShareRow] { try memory.shares(hierarchy: hierarchy) }

    func participants(of share: String) throws -> [StoredParticipant] { try memory.participants(of: share) }

    func sharesAccepted(by user: String) throws -> Set<String> { try memory.sharesAccepted(by: user) }

    func fieldTypes(of fields: [SchemaField], in database: DatabaseKey) throws -> [SchemaFieldKey: String] {
        var known: [SchemaFieldKey: String] = [:]
        for field in fields {
            // Preloaded: every field of the batch's schema is known present or absent.
            guard let type = types[PostgresGroupCaches.FieldKey(database, field)] else { throw StoreError(.failure, "schema not read") }
            if let type { known[SchemaFieldKey(field)] = type }
        }
        return known
    }

    func quota(of database: DatabaseKey) throws -> QuotaRow? {
        guard let quotaRow else { throw StoreError(.failure, "quota not read") }
        return quotaRow
    }

    func upload(_ uploadID: String) throws -> UploadRow? { try memory.upload(uploadID) }

    func blobIsStored(_ checksum: String) throws -> Bool { try memory.blobIsStored(checksum) }
}

// MARK: - Reading ahead

extension PostgresBatchRows {
    /// Reads what the batch names before the engine runs: its records (with what its writes
    /// point at, and their ancestors), the schema's types for its fields, the quota of a
    /// private database's account, and its receipts with their blobs.
    func preload(_ batch: ZoneBatch, in tx: PostgresTransaction) async throws {
        var names = Set(batch.writes.map(\.name))
        var parents = Set<String>()
        for write in batch.writes {
            names.formUnion(write.requiredTargets)
            if let parent = write.parentName { parents.insert(parent) }
            if let root = write.share?.rootName { names.insert(root) }
        }
        // The batch's own names in a plain read; parent chains (for the integrity walk) with their ancestors.
        try await readRecords(names.subtracting(parents), withAncestors: false, in: tx)
        memory.missing.records = parents
        memory.missing.uploads = Set(batch.writes.flatMap { $0.assetClaims.map(\.uploadID) })
        memory.missing.blobs = Set(batch.writes.flatMap { $0.assetClaims.map(\.checksum) })
        try await readMissing(in: tx)
        let database = batch.zone.database
        let unknown = batch.schema.filter { types[PostgresGroupCaches.FieldKey(database, $0)] == nil }
        if !unknown.isEmpty {
            let (container, environment) = (database.container, database.environment.rawValue)
            let rows = try await tx.all("""
                SELECT record_type, field_name, field_type FROM schema_fields WHERE container = \(container) AND environment = \(environment)
                    AND (record_type, field_name) IN (SELECT * FROM unnest(\(unknown.map(\.recordType))::text[], \(unknown.map(\.fieldName))::text[]))
                """) { try $0.decode((String, String, String).self) }
            for field in unknown { types[PostgresGroupCaches.FieldKey(database, field)] = .some(nil) }
            for (recordType, fieldName, type) in rows {
                types[PostgresGroupCaches.FieldKey(container: container, environment: environment, recordType: recordType, fieldName: fieldName)] = type
            }
        }
        if quotaRow == nil {
            quotaRow = .some(database.scope == .private ? try await PostgresQuotaLedger.load(for: database, in: tx) : nil)
            quotaRead = quotaRow
        }
    }

    /// Reads everything the engine was refused since the last call, one statement a kind;
    /// `false` when nothing was missing.
    @discardableResult
    func readMissing(in tx: PostgresTransaction) async throws -> Bool {
        let wanted = memory.missing
        memory.missing = BatchRowsMemory.Missing()
        guard !wanted.isEmpty else { return false }
        if !wanted.records.isEmpty { try await readRecords(wanted.records, withAncestors: true, in: tx) }
        if !wanted.sources.isEmpty { try await readSources(below: wanted.sources, in: tx) }
        if !wanted.children.isEmpty { try await readSubtrees(below: wanted.children, in: tx) }
        try await readShares(wanted, in: tx)
        if !wanted.uploads.isEmpty {
            let rows = try await tx.all("""
                SELECT upload_id, checksum, claimed_zone, claimed_record, claimed_field FROM asset_uploads
                WHERE upload_id = ANY(\(wanted.uploads.sorted()))
                """) { try $0.decode((String, String, Int64?, String?, String?).self) }
            for id in wanted.uploads { memory.uploads[id] = .some(nil) }
            for (id, checksum, zone, record, field) in rows {
                memory.uploads[id] = UploadRow(checksum: checksum, claim: UploadClaim(zoneID: zone, recordName: record, fieldName: field))
            }
        }
        if !wanted.blobs.isEmpty {
            let stored = try await tx.all("SELECT checksum FROM blobs WHERE checksum = ANY(\(wanted.blobs.sorted()))") { try $0.decode(String.self) }
            for checksum in wanted.blobs { memory.blobs[checksum] = false }
            for checksum in stored { memory.blobs[checksum] = true }
        }
        return true
    }

    /// The `DELETE_SELF` sources of `targets` and of their sources in turn (the whole cascade a
    /// delete may follow), with the sources' rows, in two statements: a cascade costs one round.
    private func readSources(below targets: Set<String>, in tx: PostgresTransaction) async throws {
        let pairs = try await tx.all("""
            WITH RECURSIVE closure(target) AS (
                SELECT unnest(\(targets.sorted())::text[])
                UNION SELECT r.source_name FROM record_references r JOIN closure c ON r.zone_id = \(zoneID) AND r.target_name = c.target
            )
            SELECT c.target, r.source_name FROM closure c
                LEFT JOIN record_references r ON r.zone_id = \(zoneID) AND r.target_name = c.target
            ORDER BY c.target, r.source_name
            """) { try $0.decode((String, String?).self) }
        Self.keep(pairs, in: &memory.sources)
        let unread = Set(pairs.compactMap(\.1)).filter { memory.records[$0] == nil }
        try await readRecords(unread, withAncestors: false, in: tx)
    }

    /// The children of `parents` and of theirs in turn (the whole subtree a move carries), in
    /// one statement: a subtree costs one round.
    private func readSubtrees(below parents: Set<String>, in tx: PostgresTransaction) async throws {
        let pairs = try await tx.all("""
            WITH RECURSIVE tree(name) AS (
                SELECT unnest(\(parents.sorted())::text[])
                UNION SELECT r.record_name FROM records r JOIN tree t ON r.zone_id = \(zoneID) AND r.parent_name = t.name
            )
            SELECT t.name, r.record_name FROM tree t
                LEFT JOIN records r ON r.zone_id = \(zoneID) AND r.parent_name = t.name
            ORDER BY t.name, r.record_name
            """) { try $0.decode((String, String?).self) }
        Self.keep(pairs, in: &memory.children)
    }

    /// Keeps a closure's edges (`(node, neighbour)`; `nil` for a node with none) as each node's
    /// list: nodes known from an earlier round keep theirs, new ones get theirs, empty included.
    private static func keep(_ pairs: [(String, String?)], in lists: inout [String: [String]]) {
        let fresh = Set(pairs.map(\.0)).filter { lists[$0] == nil }
        for node in fresh { lists[node] = [] }
        for case let (node, neighbour?) in pairs where fresh.contains(node) { lists[node]?.append(neighbour) }
    }

    /// The records named, and with `withAncestors` their ancestors too (up to ``ancestorsRead``
    /// levels), in one statement.
    private func readRecords(_ names: Set<String>, withAncestors: Bool, in tx: PostgresTransaction) async throws {
        guard !names.isEmpty else { return }
        let read: PostgresQuery = withAncestors
            ? """
                WITH RECURSIVE chain(name, depth) AS (
                    SELECT unnest(\(names.sorted())::text[]), 0
                    UNION SELECT r.parent_name, c.depth + 1 FROM records r JOIN chain c ON r.zone_id = \(zoneID) AND r.record_name = c.name
                    WHERE r.parent_name IS NOT NULL AND c.depth < \(Self.ancestorsRead)
                )
                SELECT \(unescaped: PostgresStore.recordColumns), fields_size FROM records
                WHERE zone_id = \(zoneID) AND record_name IN (SELECT name FROM chain)
                """
            : """
                SELECT \(unescaped: PostgresStore.recordColumns), fields_size FROM records
                WHERE zone_id = \(zoneID) AND record_name = ANY(\(names.sorted()))
                """
        let rows = try await tx.all(read) { row in
            BatchRecordRow(record: try PostgresStore.record(from: row), fieldsBytes: try row.makeRandomAccess()["fields_size"].decode(Int64.self))
        }
        for name in names where memory.records[name] == nil { memory.records[name] = .some(nil) }
        for row in rows { memory.records[row.record.name] = row }
    }

    private func readShares(_ wanted: BatchRowsMemory.Missing, in tx: PostgresTransaction) async throws {
        let shares = PostgresShareRows(tx: tx)
        if !wanted.shares.isEmpty {
            let rows = try await tx.all("""
                SELECT \(unescaped: PostgresShareRows.shareColumns) FROM shares WHERE zone_id = \(zoneID) AND record_name = ANY(\(wanted.shares.sorted()))
                """, PostgresShareRows.shareRow(from:))
            for name in wanted.shares { memory.shares[name] = .some(nil) }
            for row in rows { memory.shares[row.recordName] = row }
        }
        for hierarchy in wanted.sharesByKind {
            memory.sharesByKind[hierarchy] = try await tx.all("""
                SELECT \(unescaped: PostgresShareRows.shareColumns) FROM shares
                WHERE zone_id = \(zoneID) AND (root_name IS NOT NULL) = \(hierarchy) ORDER BY record_name
                """, PostgresShareRows.shareRow(from:))
        }
        for share in wanted.participants { memory.participants[share] = try await shares.participants(of: share, zoneID: zoneID) }
        if !wanted.accepted.isEmpty {
            let pairs = try await tx.all("""
                SELECT user_record_name, share_name FROM share_participants
                WHERE zone_id = \(zoneID) AND user_record_name = ANY(\(wanted.accepted.sorted())) AND status = 'ACCEPTED' AND role <> 'OWNER'
                """) { try $0.decode((String, String).self) }
            for user in wanted.accepted { memory.accepted[user] = [] }
            for (user, share) in pairs { memory.accepted[user, default: []].insert(share) }
        }
    }
}
