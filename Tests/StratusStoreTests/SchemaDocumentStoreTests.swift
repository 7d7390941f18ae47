import StratusModel
import StratusStore
import Testing

/// Imported schemas and role memberships as every store keeps them: a replacement leaves
/// exactly its fields, indexes and document in one environment, deploy carries the document to
/// production, memberships are listed in byte order.
@Suite("Schema document store")
struct SchemaDocumentStoreTests {
    static let container = "iCloud.test"

    static func replacement(_ fields: [SchemaField], indexes: [(String, String, IndexKind)], document: String) -> SchemaReplacement {
        SchemaReplacement(
            container: container, environment: .development, fields: fields,
            indexes: indexes.map { IndexDefinition(container: container, environment: .development, recordType: $0.0, fieldName: $0.1, kind: $0.2) },
            document: document
        )
    }

    @Test("a replacement leaves exactly its fields, indexes and document, in its environment only", arguments: StoreKind.backEnds)
    func replaces(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.schemaDocument(container: Self.container, environment: .development) == nil)
            try await store.replaceSchema(Self.replacement(
                [SchemaField(recordType: "Trip", fieldName: "title", type: .string), SchemaField(recordType: "Old", fieldName: "x", type: .int64)],
                indexes: [("Trip", "title", .queryable), ("Old", "x", .sortable)], document: "DEFINE SCHEMA\n"
            ))
            try await store.replaceSchema(Self.replacement(
                [SchemaField(recordType: "Trip", fieldName: "title", type: .string), SchemaField(recordType: "Trip", fieldName: "rank", type: .int64)],
                indexes: [("Trip", "rank", .sortable), ("Trip", "___recordId", .queryable)], document: "DEFINE SCHEMA\n\n    CREATE ROLE Crew;\n"
            ))
            #expect(try await store.schema(container: Self.container, environment: .development) == ["Trip": ["title": .string, "rank": .int64]])
            let indexes = try await store.indexes(container: Self.container, environment: .development)
            #expect(Set(indexes.map { "\($0.recordType).\($0.fieldName) \($0.kind.rawValue)" }) == ["Trip.___recordId QUERYABLE", "Trip.rank SORTABLE"])
            #expect(try await store.schemaDocument(container: Self.container, environment: .development) == "DEFINE SCHEMA\n\n    CREATE ROLE Crew;\n")
            #expect(try await store.schema(container: Self.container, environment: .production).isEmpty)
            #expect(try await store.schemaDocument(container: Self.container, environment: .production) == nil)

            try await store.deploySchema(container: Self.container)
            #expect(try await store.schema(container: Self.container, environment: .production) == ["Trip": ["title": .string, "rank": .int64]])
            #expect(try await store.schemaDocument(container: Self.container, environment: .production) == "DEFINE SCHEMA\n\n    CREATE ROLE Crew;\n")
            #expect(try await store.schemaDocument(container: "iCloud.other", environment: .development) == nil)
        }
    }

    @Test("role memberships are added once, removed, and listed by role then user", arguments: StoreKind.backEnds)
    func memberships(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let members = [
                RoleMember(role: "b", userRecordName: "_2"), RoleMember(role: "B", userRecordName: "_1"),
                RoleMember(role: "b", userRecordName: "_1"), RoleMember(role: "b", userRecordName: "_1"),
            ]
            for member in members {
                try await store.setRoleMember(member, container: Self.container, present: true)
            }
            try await store.setRoleMember(RoleMember(role: "b", userRecordName: "_9"), container: "iCloud.other", present: true)
            #expect(try await store.roleMembers(container: Self.container) == [
                RoleMember(role: "B", userRecordName: "_1"), RoleMember(role: "b", userRecordName: "_1"), RoleMember(role: "b", userRecordName: "_2"),
            ])
            try await store.setRoleMember(RoleMember(role: "b", userRecordName: "_1"), container: Self.container, present: false)
            try await store.setRoleMember(RoleMember(role: "none", userRecordName: "_1"), container: Self.container, present: false)
            #expect(try await store.roleMembers(container: Self.container) == [
                RoleMember(role: "B", userRecordName: "_1"), RoleMember(role: "b", userRecordName: "_2"),
            ])
            #expect(try await store.roleMembers(container: "iCloud.other") == [RoleMember(role: "b", userRecordName: "_9")])
        }
    }
}
