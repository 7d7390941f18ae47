import Foundation
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// A container's schema in and out as the CloudKit Schema Language over the admin API: export
/// what development learned, import a file (replacing development's schema), and the refusals
/// that change nothing.
@Suite("schema language over the admin API")
struct SchemaLanguageTests {
    static let schema = """
        DEFINE SCHEMA

            CREATE ROLE Editors;

            // A trip: everyone reads, signed-in users create, the creator writes.
            RECORD TYPE Trip (
                "___createTime" TIMESTAMP SORTABLE,
                "___recordID"   REFERENCE QUERYABLE,
                title           STRING QUERYABLE SEARCHABLE SORTABLE,
                rank            INT64 QUERYABLE SORTABLE,
                note            STRING,
                tags            LIST<STRING> QUERYABLE,
                GRANT WRITE TO "_creator",
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Board (
                "___recordID" REFERENCE QUERYABLE,
                message       STRING,
                GRANT WRITE, CREATE, READ TO "_icloud",
                GRANT READ TO "_world"
            );

            RECORD TYPE Notice (
                "___recordID" REFERENCE QUERYABLE,
                text          STRING,
                GRANT READ TO "_world",
                GRANT CREATE, WRITE TO "Editors"
            );

            RECORD TYPE Diary (
                entry STRING,
                GRANT READ, WRITE TO "_creator",
                GRANT CREATE TO "_icloud"
            );

            RECORD TYPE Ping (
                "___recordID" REFERENCE,
                GRANT CREATE TO "_icloud",
                GRANT READ TO "_world"
            );
        """

    static func export(_ server: TestServer, _ environment: ContainerEnvironment = .development) async throws -> String {
        let answer = try await server.admin(
            "schema/export?container=\(server.credentials.container)&environment=\(environment.rawValue)", method: .get
        )
        #expect(answer.status == .ok, "\(answer.text)")
        #expect(answer.headers[.contentType]?.hasPrefix("text/plain") == true)
        return answer.text
    }

    static func importSchema(_ server: TestServer, _ text: String) async throws -> TestResponse {
        try await server.admin("schema/import", SchemaImportRequest(container: server.credentials.container, schema: text))
    }

    @Test("the learned schema exports as CloudKit Schema Language; export, import, export gives the same text")
    func roundTrip() async throws {
        try await TestServer.run { server in
            let learned = Record(recordName: "lisbon", recordType: "Destination", fields: [
                "caption": .string("Lisbon"), "nights": .int64(3), "tags": Field(.list([.string("sea")]), type: .stringList),
            ])
            _ = try await server.modify([RecordOperation(.create, learned)], zone: ZoneID.defaultZoneName)
            let first = try await Self.export(server)
            #expect(first.hasPrefix("DEFINE SCHEMA\n"), "\(first)")
            #expect(first.contains("RECORD TYPE Destination (") && first.contains("LIST<STRING>") && first.contains("GRANT READ TO \"_world\""), "\(first)")
            #expect(try await Self.importSchema(server, first).status == .ok)
            #expect(try await Self.export(server) == first)

            // A file replaces development's schema: Destination goes (production never had it).
            let imported = try await Self.importSchema(server, Self.schema)
            #expect(imported.status == .ok, "\(imported.text)")
            // Ping has only an unindexed system field: the learned schema has nothing of it, the export does.
            #expect(try imported.decode(SchemaDescription.self).recordTypes.map(\.name) == ["Board", "Diary", "Notice", "Trip"])
            let second = try await Self.export(server)
            #expect(!second.contains("Destination") && second.contains("    CREATE ROLE Editors;\n") && second.contains("RECORD TYPE Ping ("), "\(second)")
            #expect(second.contains("GRANT READ, CREATE, WRITE TO \"_icloud\""), "\(second)")
            #expect(second.contains("GRANT CREATE, WRITE TO \"Editors\""), "\(second)")
            #expect(second.contains("STRING QUERYABLE SEARCHABLE SORTABLE"), "\(second)")
            #expect(try await Self.importSchema(server, second).status == .ok)
            #expect(try await Self.export(server) == second)
        }
    }

    @Test("a file with an error, or one that drops what production has, is refused whole: nothing changes")
    func refusals() async throws {
        try await TestServer.run { server in
            #expect(try await Self.importSchema(server, Self.schema).status == .ok)
            #expect(try await server.admin("schema/deploy", SchemaRequest(container: server.credentials.container)).status == .ok)
            let before = try await Self.export(server)
            #expect(try await Self.export(server, .production) == before)

            let broken = try await Self.importSchema(server, Self.schema.replacingOccurrences(of: "rank            INT64", with: "rank            INTEGER64"))
            #expect(broken.status == .badRequest)
            #expect(broken.errorBody?.serverErrorCode == .badRequest)
            #expect(broken.errorBody?.reason.hasPrefix("line 10, column 25: expected a field type") == true, "\(broken.text)")
            #expect(try await Self.export(server) == before)

            let dropped = try await Self.importSchema(server, Self.schema.replacingOccurrences(of: "RECORD TYPE Trip", with: "RECORD TYPE Voyage"))
            #expect(dropped.status == .badRequest)
            #expect(dropped.errorBody?.reason.contains("record type 'Trip', which production has") == true, "\(dropped.text)")
            let retyped = try await Self.importSchema(server, Self.schema.replacingOccurrences(of: "note            STRING", with: "note            INT64"))
            #expect(retyped.errorBody?.reason.contains("field 'note' of record type 'Trip' is STRING in production") == true, "\(retyped.text)")
            #expect(try await Self.export(server) == before)
        }
    }

    @Test("an import that retypes a field development has is refused; leaving it out drops it, and the next import may add it anew")
    func developmentFieldsKeepTheirType() async throws {
        try await TestServer.run { server in
            #expect(try await Self.importSchema(server, Self.schema).status == .ok)
            let before = try await Self.export(server)
            let retyped = try await Self.importSchema(server, Self.schema.replacingOccurrences(of: "note            STRING", with: "note            INT64"))
            #expect(retyped.status == .badRequest)
            #expect(retyped.errorBody?.reason.contains("field 'note' of record type 'Trip' is STRING in development") == true, "\(retyped.text)")
            #expect(try await Self.export(server) == before)
            let withoutNote = Self.schema.replacingOccurrences(of: "        note            STRING,\n", with: "")
            #expect(withoutNote != Self.schema)
            #expect(try await Self.importSchema(server, withoutNote).status == .ok)
            let readded = try await Self.importSchema(server, Self.schema.replacingOccurrences(of: "note            STRING", with: "note            INT64"))
            #expect(readded.status == .ok, "\(readded.text)")
        }
    }

    @Test("production takes the imported types once deployed, a type with only system fields too, and no other")
    func productionLock() async throws {
        try await TestServer.run { server in
            #expect(try await Self.importSchema(server, Self.schema).status == .ok)
            #expect(try await server.admin("schema/deploy", SchemaRequest(container: server.credentials.container)).status == .ok)
            let token = try await server.admin(
                "api-tokens", CreateAPITokenRequest(container: server.credentials.container, environment: .production)
            ).decode(CreateAPITokenResponse.self).apiToken
            let web = server.credentials.account("alice")?.webAuthToken ?? ""
            func create(_ record: Record) async throws -> RecordsResponse {
                let body = ModifyRecordsRequest(operations: [RecordOperation(.create, record)])
                return try await server.client.execute(
                    uri: "/database/1/\(server.credentials.container)/production/public/records/modify?ckAPIToken=\(token)&ckWebAuthToken=\(web)",
                    method: .post, headers: [:], body: ByteBuffer(data: try JSONEncoder().encode(body))
                ).decode(RecordsResponse.self)
            }
            #expect(try await create(Record(recordName: "p1", recordType: "Trip", fields: ["title": .string("Faro")])).records.first?.record != nil)
            #expect(try await create(Record(recordName: "ping", recordType: "Ping")).records.first?.record != nil)
            let stray = try await create(Record(recordName: "s", recordType: "Stray", fields: ["title": .string("x")]))
            #expect(stray.records.first?.error?.serverErrorCode == .badRequest)
        }
    }

    @Test("roles are given only when the schema makes them; the built-in ones never")
    func roleMembers() async throws {
        try await TestServer.run { server in
            let container = server.credentials.container
            let bob = server.userRecordName("bob")
            let early = try await server.admin("roles/members", RoleMembershipRequest(container: container, role: "Editors", userRecordName: bob))
            #expect(early.status == .badRequest && early.errorBody?.reason.contains("makes no role 'Editors'") == true, "\(early.text)")
            #expect(try await Self.importSchema(server, Self.schema).status == .ok)
            let added = try await server.admin("roles/members", RoleMembershipRequest(container: container, role: "Editors", userRecordName: bob))
            #expect(try added.decode(RoleMembersResponse.self).members == [RoleMember(role: "Editors", userRecordName: bob)])
            let builtIn = try await server.admin("roles/members", RoleMembershipRequest(container: container, role: "_icloud", userRecordName: bob))
            #expect(builtIn.status == .badRequest)
            let listed = try await server.admin("roles/members?container=\(container)", method: .get)
            #expect(try listed.decode(RoleMembersResponse.self).members.count == 1)
            let removed = try await server.admin(
                "roles/members", RoleMembershipRequest(container: container, role: "Editors", userRecordName: bob, present: false)
            )
            #expect(try removed.decode(RoleMembersResponse.self).members.isEmpty)
        }
    }
}
