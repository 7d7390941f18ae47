import Foundation
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("schema, production lock and indexes over HTTP")
struct SchemaIndexTests {
    /// POSTs to the production private database as alice, with a production API token.
    private func production<Body: Encodable>(_ server: TestServer, token: String, _ operation: String, _ body: Body) async throws -> TestResponse {
        let web = server.credentials.account("alice")?.webAuthToken ?? ""
        return try await server.client.execute(
            uri: "/database/1/\(server.credentials.container)/production/private/\(operation)?ckAPIToken=\(token)&ckWebAuthToken=\(web)",
            method: .post, headers: [:], body: ByteBuffer(data: try JSONEncoder().encode(body))
        )
    }

    private func index(_ server: TestServer, _ field: String, _ kind: IndexKind, present: Bool = true) async throws -> TestResponse {
        try await server.admin("schema/indexes", IndexChangeRequest(
            container: server.credentials.container, environment: .production, recordType: "Destination", fieldName: field, index: kind, present: present
        ))
    }

    @Test("production is locked until the development schema is deployed; queries there need indexes")
    func productionLockAndIndexes() async throws {
        try await TestServer.run { server in
            let token = try await server.admin(
                "api-tokens", CreateAPITokenRequest(container: server.credentials.container, environment: .production)
            ).decode(CreateAPITokenResponse.self).apiToken
            let create = ModifyRecordsRequest(operations: [RecordOperation(.create, Records.destination("paris", caption: "Paris"))])

            // Unknown record type in production: refused, nothing saved.
            let locked = try await production(server, token: token, "records/modify", create).decode(RecordsResponse.self)
            #expect(locked.records.first?.error?.serverErrorCode == .badRequest)
            #expect(locked.records.first?.error?.reason.contains("production schema") == true)

            // Learn the type in development, deploy, then production accepts it (and only known fields).
            _ = try await server.modify([Records.create("dev-paris", caption: "Paris")], zone: ZoneID.defaultZoneName)
            let deployed = try await server.admin("schema/deploy", SchemaRequest(container: server.credentials.container))
            let schema = try deployed.decode(SchemaDescription.self)
            #expect(schema.environment == .production)
            #expect(schema.recordTypes.first { $0.name == "Destination" }?.fields.contains { $0.name == "caption" && $0.type == .string } == true)
            let saved = try await production(server, token: token, "records/modify", create).decode(RecordsResponse.self)
            #expect(saved.records.first?.record?.recordName == "paris")
            let unknownField = ModifyRecordsRequest(operations: [RecordOperation(
                .create, Record(recordName: "x", recordType: "Destination", fields: ["nope": .string("x")])
            )])
            let refused = try await production(server, token: token, "records/modify", unknownField).decode(RecordsResponse.self)
            #expect(refused.records.first?.error?.serverErrorCode == .badRequest)

            // Queries in production need the index the filter or sort uses.
            let byCaption = QueryRecordsRequest(query: Query(recordType: "Destination", filterBy: [.init(.equals, field: "caption", .string("Paris"))]))
            let unindexed = try await production(server, token: token, "records/query", byCaption)
            #expect(unindexed.status == .badRequest)
            #expect(unindexed.errorBody?.reason == "Field 'caption' is not marked queryable")
            let byName = QueryRecordsRequest(query: Query(recordType: "Destination", filterBy: [.init(.equals, systemField: "recordName", .string("paris"))]))
            #expect(try await production(server, token: token, "records/query", byName).errorBody?.reason == "Field 'recordName' is not marked queryable")

            // Production's schema is locked for indexes too: a typo names nothing, and creates nothing.
            let typoField = try await index(server, "captoin", .queryable)
            #expect(typoField.status == .notFound && typoField.errorBody?.reason.contains("no field 'captoin'") == true, "\(typoField.text)")
            let typoType = try await server.admin("schema/indexes", IndexChangeRequest(
                container: server.credentials.container, environment: .production, recordType: "Destinaton", fieldName: "caption", index: .queryable
            ))
            #expect(typoType.status == .notFound && typoType.errorBody?.reason.contains("no record type 'Destinaton'") == true, "\(typoType.text)")

            #expect(try await index(server, "caption", .queryable).status == .ok)
            #expect(try await index(server, "___recordId", .queryable).status == .ok)
            let indexed = try await production(server, token: token, "records/query", byCaption)
            #expect(try indexed.decode(QueryRecordsResponse.self).records.first?.record?.recordName == "paris")
            #expect(try await production(server, token: token, "records/query", byName).status == .ok)

            var sorted = byCaption
            sorted.query.sortBy = [QuerySort(field: "caption")]
            #expect(try await production(server, token: token, "records/query", sorted).errorBody?.reason == "Field 'caption' is not marked sortable")
            #expect(try await index(server, "caption", .sortable).status == .ok)
            #expect(try await production(server, token: token, "records/query", sorted).status == .ok)

            // Removing the index locks the query again.
            #expect(try await index(server, "caption", .queryable, present: false).status == .ok)
            #expect(try await production(server, token: token, "records/query", byCaption).status == .badRequest)

            let show = try await server.admin("schema/show", SchemaRequest(container: server.credentials.container, environment: .production))
            let caption = try show.decode(SchemaDescription.self).recordTypes.first { $0.name == "Destination" }?.fields.first { $0.name == "caption" }
            #expect(caption?.indexes == [.sortable])
        }
    }

    @Test("with --require-indexes development needs the indexes CloudKit requires, recordName (___recordID) for a type query")
    func requireIndexesInDevelopment() async throws {
        try await TestServer.run(requireIndexes: true) { server in
            _ = try await server.modify([Records.create("paris", caption: "Paris")], zone: ZoneID.defaultZoneName)
            func developmentIndex(_ field: String, _ kind: IndexKind) async throws -> TestResponse {
                try await server.admin("schema/indexes", IndexChangeRequest(
                    container: server.credentials.container, environment: .development, recordType: "Destination", fieldName: field, index: kind
                ))
            }
            let everything = QueryRecordsRequest(query: Query(recordType: "Destination"))
            let unindexed = try await server.post("records/query", everything)
            #expect(unindexed.status == .badRequest)
            #expect(unindexed.errorBody?.serverErrorCode == .badRequest)
            #expect(unindexed.errorBody?.reason == "Field 'recordName' is not marked queryable")
            let byCaption = QueryRecordsRequest(query: Query(recordType: "Destination", filterBy: [.init(.equals, field: "caption", .string("Paris"))]))
            #expect(try await server.post("records/query", byCaption).errorBody?.reason == "Field 'caption' is not marked queryable")

            // Apple's schema files spell the recordName index `___recordID`: it is the same index.
            #expect(try await developmentIndex("___recordID", .queryable).status == .ok)
            let answered = try await server.post("records/query", everything)
            #expect(answered.status == .ok)
            #expect(try answered.decode(QueryRecordsResponse.self).records.compactMap { $0.record?.recordName } == ["paris"])
            let show = try await server.admin("schema/show", SchemaRequest(container: server.credentials.container, environment: .development))
            let recordID = try show.decode(SchemaDescription.self).recordTypes.first { $0.name == "Destination" }?.fields.first { $0.name == "___recordId" }
            #expect(recordID?.indexes == [.queryable])

            #expect(try await developmentIndex("caption", .queryable).status == .ok)
            #expect(try await server.post("records/query", byCaption).status == .ok)
        }
    }
}
