import PostgresNIO
import StratusModel
import StratusStore

/// The learned schema and schema indexes in PostgreSQL. A QUERYABLE or SORTABLE index on a user
/// field is an expression index over its `jsonb` value, keyed first by `(zone_id, record_type)`
/// as every query filters and last by `record_name`, every sort's tiebreak (so a sorted page is
/// read in order, with no sort step), built `CONCURRENTLY` so writers are never blocked while it
/// builds.
extension PostgresStore: SchemaStore {
    public func schema(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [String: [String: FieldType]] {
        let rows = try await all(query("""
            SELECT record_type, field_name, field_type FROM schema_fields
            WHERE container = \(container) AND environment = \(environment.rawValue)
            """)) { try $0.decode((String, String, String).self) }
        var schema: [String: [String: FieldType]] = [:]
        for (recordType, field, tag) in rows {
            guard let type = FieldType(rawValue: tag) else { continue }
            schema[recordType, default: [:]][field] = type
        }
        return schema
    }

    public func indexes(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [IndexDefinition] {
        try await all(query("""
            SELECT record_type, field_name, kind FROM schema_indexes
            WHERE container = \(container) AND environment = \(environment.rawValue) ORDER BY 1, 2, 3
            """)) { try $0.decode((String, String, String).self) }.compactMap { recordType, field, kind in
            IndexKind(rawValue: kind).map {
                IndexDefinition(container: container, environment: environment, recordType: recordType, fieldName: field, kind: $0)
            }
        }
    }

    public func setIndex(_ index: IndexDefinition, present: Bool) async throws(StoreError) {
        let (container, environment, recordType, field, kind) =
            (index.container, index.environment.rawValue, index.recordType, index.fieldName, index.kind.rawValue)
        if present {
            try await query("""
                INSERT INTO schema_indexes VALUES (\(container), \(environment), \(recordType), \(field), \(kind)) ON CONFLICT DO NOTHING
                """)
        } else {
            try await query("""
                DELETE FROM schema_indexes WHERE container = \(container) AND environment = \(environment)
                    AND record_type = \(recordType) AND field_name = \(field) AND kind = \(kind)
                """)
        }
        try await syncExpressionIndex(field: field)
    }

    public func deploySchema(container: String) async throws(StoreError) {
        try await write { tx in
            try await tx.execute("""
                INSERT INTO schema_fields
                SELECT container, 'production', record_type, field_name, field_type FROM schema_fields
                WHERE container = \(container) AND environment = 'development'
                ON CONFLICT DO NOTHING
                """)
            try await tx.execute("""
                INSERT INTO schema_indexes
                SELECT container, 'production', record_type, field_name, kind FROM schema_indexes
                WHERE container = \(container) AND environment = 'development'
                ON CONFLICT DO NOTHING
                """)
            try await tx.execute("""
                INSERT INTO schema_documents
                SELECT container, 'production', document FROM schema_documents
                WHERE container = \(container) AND environment = 'development'
                ON CONFLICT (container, environment) DO UPDATE SET document = EXCLUDED.document
                """)
        }
    }

    /// Creates a user field's expression index while any QUERYABLE or SORTABLE index names it,
    /// and drops it when none does. One index serves every record type and container.
    func syncExpressionIndex(field: String) async throws(StoreError) {
        guard !field.hasPrefix("___") else { return }  // system fields are columns
        let needed = try await first(query("""
            SELECT 1::INT FROM schema_indexes WHERE field_name = \(field) AND kind IN ('QUERYABLE', 'SORTABLE') LIMIT 1
            """)) { _ in true } ?? false
        let reference = try await first(query("""
            SELECT 1::INT FROM schema_fields WHERE field_name = \(field) AND field_type IN ('REFERENCE', 'REFERENCE_LIST') LIMIT 1
            """)) { _ in true } ?? false
        let expression: String
        let name: String
        do {
            expression = try PostgresFieldSQL.expression(field, reference: reference)
            name = try PostgresFieldSQL.indexName(field)
        } catch {
            throw StoreError(.invalid, "field '\(field)' cannot be indexed")
        }
        if needed {
            // A build that failed (or was interrupted) leaves an invalid index behind: drop it first.
            let bare = String(name.dropFirst().dropLast())
            let invalid = try await first(query("""
                SELECT 1::INT FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = \(bare) AND NOT i.indisvalid
                """)) { _ in true } ?? false
            if invalid { try await execute(unsafeSQL: "DROP INDEX CONCURRENTLY IF EXISTS \(name)") }
            try await execute(
                unsafeSQL: "CREATE INDEX CONCURRENTLY IF NOT EXISTS \(name) ON records (zone_id, record_type, \(expression), record_name)"
            )
        } else {
            try await execute(unsafeSQL: "DROP INDEX CONCURRENTLY IF EXISTS \(name)")
        }
    }
}
