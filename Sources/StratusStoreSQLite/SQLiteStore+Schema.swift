import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore: SchemaStore {
    public func indexes(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [IndexDefinition] {
        try await read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT record_type, field_name, kind FROM schema_indexes WHERE container = ? AND environment = ? ORDER BY 1, 2, 3",
                arguments: [container, environment.rawValue]
            ).compactMap { row in
                IndexKind(rawValue: row[2]).map {
                    IndexDefinition(container: container, environment: environment, recordType: row[0], fieldName: row[1], kind: $0)
                }
            }
        }
    }

    public func setIndex(_ index: IndexDefinition, present: Bool) async throws(StoreError) {
        try await write { db in
            let key: StatementArguments = [index.container, index.environment.rawValue, index.recordType, index.fieldName, index.kind.rawValue]
            if present {
                try db.execute(sql: "INSERT OR IGNORE INTO schema_indexes VALUES (?, ?, ?, ?, ?)", arguments: key)
            } else {
                try db.execute(
                    sql: "DELETE FROM schema_indexes WHERE container = ? AND environment = ? AND record_type = ? AND field_name = ? AND kind = ?",
                    arguments: key
                )
            }
            try SQLiteStore.syncExpressionIndex(field: index.fieldName, in: db)
        }
    }

    public func deploySchema(container: String) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO schema_fields
                    SELECT container, 'production', record_type, field_name, field_type FROM schema_fields
                    WHERE container = ? AND environment = 'development';
                    INSERT OR IGNORE INTO schema_indexes
                    SELECT container, 'production', record_type, field_name, kind FROM schema_indexes
                    WHERE container = ? AND environment = 'development';
                    INSERT OR REPLACE INTO schema_documents
                    SELECT container, 'production', document FROM schema_documents
                    WHERE container = ? AND environment = 'development';
                    """,
                arguments: [container, container, container]
            )
        }
    }

    public func queryPlan(_ query: RecordQuery) async throws(StoreError) -> [String] {
        try await read { db in
            guard let zone = try SQLiteStore.fetchZone(query.zone, in: db) else { throw StoreError(.zoneNotFound) }
            let statement = try QuerySQL(query, zoneID: zone.id, indexes: SQLiteStore.expressionIndexes(in: db))
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { $0["detail"] }
        }
    }

    /// Creates the SQL expression index of a user field while any QUERYABLE or SORTABLE index
    /// names it, and drops it when none does. One index serves every record type and container:
    /// its key starts with `(zone_id, record_type)`, the columns every query filters on.
    static func syncExpressionIndex(field: String, in db: Database) throws {
        guard !field.hasPrefix("___") else { return }  // system fields are columns
        let needed = try Bool.fetchOne(
            db, sql: "SELECT 1 FROM schema_indexes WHERE field_name = ? AND kind IN ('QUERYABLE', 'SORTABLE') LIMIT 1", arguments: [field]
        ) ?? false
        let reference = try Bool.fetchOne(
            db, sql: "SELECT 1 FROM schema_fields WHERE field_name = ? AND field_type IN ('REFERENCE', 'REFERENCE_LIST') LIMIT 1", arguments: [field]
        ) ?? false
        let expression = try QuerySQL.expression(for: .field(field, reference: reference))
        let name = QuerySQL.indexName(of: field)
        if needed {
            try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name.quotedDatabaseIdentifier) ON records (zone_id, record_type, \(expression))")
        } else {
            try db.execute(sql: "DROP INDEX IF EXISTS \(name.quotedDatabaseIdentifier)")
        }
    }
}

/// Imported schema documents and role memberships: a replaced schema is one write transaction
/// (fields, indexes, the document and the SQL expression indexes that follow them).
extension SQLiteStore: SchemaDocumentStore {
    public func schemaDocument(container: String, environment: ContainerEnvironment) async throws(StoreError) -> String? {
        try await read { db in
            try String.fetchOne(
                db, sql: "SELECT document FROM schema_documents WHERE container = ? AND environment = ?",
                arguments: [container, environment.rawValue]
            )
        }
    }

    public func replaceSchema(_ replacement: SchemaReplacement) async throws(StoreError) {
        try await write { db in
            let container = replacement.container
            let environment = replacement.environment.rawValue
            let indexedBefore = try String.fetchAll(
                db, sql: "SELECT DISTINCT field_name FROM schema_indexes WHERE container = ? AND environment = ?",
                arguments: [container, environment]
            )
            try db.execute(sql: "DELETE FROM schema_fields WHERE container = ? AND environment = ?", arguments: [container, environment])
            try db.execute(sql: "DELETE FROM schema_indexes WHERE container = ? AND environment = ?", arguments: [container, environment])
            for field in replacement.fields {
                try db.execute(
                    sql: """
                        INSERT OR REPLACE INTO schema_fields (container, environment, record_type, field_name, field_type)
                        VALUES (?, ?, ?, ?, ?)
                        """,
                    arguments: [container, environment, field.recordType, field.fieldName, field.type.rawValue]
                )
            }
            for index in replacement.indexes {
                try db.execute(
                    sql: "INSERT OR IGNORE INTO schema_indexes (container, environment, record_type, field_name, kind) VALUES (?, ?, ?, ?, ?)",
                    arguments: [container, environment, index.recordType, index.fieldName, index.kind.rawValue]
                )
            }
            try db.execute(
                sql: "INSERT OR REPLACE INTO schema_documents (container, environment, document) VALUES (?, ?, ?)",
                arguments: [container, environment, replacement.document]
            )
            for field in Set(indexedBefore).union(replacement.indexes.map(\.fieldName)).sorted() {
                try SQLiteStore.syncExpressionIndex(field: field, in: db)
            }
        }
    }

    public func roleMembers(container: String) async throws(StoreError) -> [RoleMember] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT role, user_record_name FROM role_members WHERE container = ? ORDER BY role, user_record_name",
                arguments: [container]
            ).map { row in RoleMember(role: row[0], userRecordName: row[1]) }
        }
    }

    public func setRoleMember(_ member: RoleMember, container: String, present: Bool) async throws(StoreError) {
        try await write { db in
            let arguments: StatementArguments = [container, member.role, member.userRecordName]
            if present {
                try db.execute(sql: "INSERT OR IGNORE INTO role_members (container, role, user_record_name) VALUES (?, ?, ?)", arguments: arguments)
            } else {
                try db.execute(sql: "DELETE FROM role_members WHERE container = ? AND role = ? AND user_record_name = ?", arguments: arguments)
            }
        }
    }
}
