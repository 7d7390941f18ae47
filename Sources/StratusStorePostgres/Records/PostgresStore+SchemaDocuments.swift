import PostgresNIO
import StratusModel
import StratusStore

/// Imported schema documents and role memberships in PostgreSQL. A replaced schema's fields,
/// indexes and document change in one transaction; the expression indexes that follow them are
/// built (or dropped) `CONCURRENTLY` after it commits, as ``setIndex(_:present:)`` builds them.
extension PostgresStore: SchemaDocumentStore {
    public func schemaDocument(container: String, environment: ContainerEnvironment) async throws(StoreError) -> String? {
        try await first(query("""
            SELECT document FROM schema_documents WHERE container = \(container) AND environment = \(environment.rawValue)
            """)) { try $0.decode(String.self) }
    }

    public func replaceSchema(_ replacement: SchemaReplacement) async throws(StoreError) {
        let container = replacement.container
        let environment = replacement.environment.rawValue
        let document = replacement.document
        let indexedBefore: [String] = try await write { tx in
            let before = try await tx.all("""
                SELECT DISTINCT field_name FROM schema_indexes WHERE container = \(container) AND environment = \(environment)
                """) { try $0.decode(String.self) }
            try await tx.execute("DELETE FROM schema_fields WHERE container = \(container) AND environment = \(environment)")
            try await tx.execute("DELETE FROM schema_indexes WHERE container = \(container) AND environment = \(environment)")
            for field in replacement.fields {
                let (recordType, name, type) = (field.recordType, field.fieldName, field.type.rawValue)
                try await tx.execute("""
                    INSERT INTO schema_fields (container, environment, record_type, field_name, field_type)
                    VALUES (\(container), \(environment), \(recordType), \(name), \(type))
                    ON CONFLICT (container, environment, record_type, field_name) DO UPDATE SET field_type = EXCLUDED.field_type
                    """)
            }
            for index in replacement.indexes {
                let (recordType, name, kind) = (index.recordType, index.fieldName, index.kind.rawValue)
                try await tx.execute("""
                    INSERT INTO schema_indexes (container, environment, record_type, field_name, kind)
                    VALUES (\(container), \(environment), \(recordType), \(name), \(kind)) ON CONFLICT DO NOTHING
                    """)
            }
            try await tx.execute("""
                INSERT INTO schema_documents (container, environment, document) VALUES (\(container), \(environment), \(document))
                ON CONFLICT (container, environment) DO UPDATE SET document = EXCLUDED.document
                """)
            return before
        }
        for field in Set(indexedBefore).union(replacement.indexes.map(\.fieldName)).sorted() {
            try await syncExpressionIndex(field: field)
        }
    }

    public func roleMembers(container: String) async throws(StoreError) -> [RoleMember] {
        try await all(query("""
            SELECT role, user_record_name FROM role_members WHERE container = \(container)
            ORDER BY role COLLATE "C", user_record_name COLLATE "C"
            """)) { try $0.decode((String, String).self) }.map { role, user in RoleMember(role: role, userRecordName: user) }
    }

    public func setRoleMember(_ member: RoleMember, container: String, present: Bool) async throws(StoreError) {
        let (role, user) = (member.role, member.userRecordName)
        if present {
            try await query("""
                INSERT INTO role_members (container, role, user_record_name) VALUES (\(container), \(role), \(user)) ON CONFLICT DO NOTHING
                """)
        } else {
            try await query("""
                DELETE FROM role_members WHERE container = \(container) AND role = \(role) AND user_record_name = \(user)
                """)
        }
    }
}
