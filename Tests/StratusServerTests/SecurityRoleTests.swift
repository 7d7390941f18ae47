import Foundation
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// The schema's GRANTs as the public database's security roles over HTTP: `_world`, `_icloud`,
/// `_creator` and a role made with `CREATE ROLE` (with a member given through the admin API),
/// READ, CREATE and WRITE enforced on records/modify, records/lookup and records/query.
@Suite("security roles in the public database")
struct SecurityRoleTests {
    /// Imports ``SchemaLanguageTests/schema`` and runs `body`.
    private func withSchema(_ body: @Sendable (TestServer) async throws -> Void) async throws {
        try await TestServer.run { server in
            let imported = try await server.admin(
                "schema/import", SchemaImportRequest(container: server.credentials.container, schema: SchemaLanguageTests.schema)
            )
            #expect(imported.status == .ok, "\(imported.text)")
            try await body(server)
        }
    }

    private func save(
        _ server: TestServer, _ name: String, _ type: String, _ fields: [String: Field], as account: String,
        operation: RecordOperationType = .create, tag: String? = nil
    ) async throws -> RecordResult? {
        let record = Record(recordName: name, recordType: type, recordChangeTag: tag, fields: fields)
        let response = try await server.post(
            "records/modify", ModifyRecordsRequest(operations: [RecordOperation(operation, record)]), database: "public", as: account
        )
        #expect(response.status == .ok, "\(response.text)")
        return try response.decode(RecordsResponse.self).records.first
    }

    private func lookup(_ server: TestServer, _ name: String, as account: String?) async throws -> RecordResult? {
        try await server.post(
            "records/lookup", LookupRecordsRequest(records: [.init(recordName: name)]), database: "public", as: account
        ).decode(RecordsResponse.self).records.first
    }

    private func query(_ server: TestServer, _ type: String, as account: String?) async throws -> TestResponse {
        try await server.post("records/query", QueryRecordsRequest(query: Query(recordType: type)), database: "public", as: account)
    }

    @Test("GRANT WRITE TO \"_icloud\": any signed-in user changes anyone's record; \"_creator\" alone: only its creator")
    func writeGrants() async throws {
        try await withSchema { server in
            let board = try #require(try await save(server, "board1", "Board", ["message": .string("hello")], as: "alice")?.record)
            let changed = try await save(
                server, "board1", "Board", ["message": .string("bob was here")], as: "bob", operation: .update, tag: board.recordChangeTag
            )
            #expect(changed?.record?.fields?["message"] == .string("bob was here"), "\(String(describing: changed))")

            let trip = try #require(try await save(server, "trip1", "Trip", ["title": .string("Porto")], as: "alice")?.record)
            let refused = try await save(server, "trip1", "Trip", ["title": .string("mine")], as: "bob", operation: .update, tag: trip.recordChangeTag)
            #expect(refused?.error?.serverErrorCode == .accessDenied)
            let deleted = try await save(server, "trip1", "Trip", [:], as: "bob", operation: .forceDelete)
            #expect(deleted?.error?.serverErrorCode == .accessDenied)
            let own = try await save(server, "trip1", "Trip", ["title": .string("Porto!")], as: "alice", operation: .update, tag: trip.recordChangeTag)
            #expect(own?.record != nil, "\(String(describing: own))")
        }
    }

    @Test("CREATE and WRITE granted to a role made with CREATE ROLE: its members only, once given it")
    func customRole() async throws {
        try await withSchema { server in
            #expect(try await save(server, "n1", "Notice", ["text": .string("hi")], as: "alice")?.error?.serverErrorCode == .accessDenied)
            let given = try await server.admin("roles/members", RoleMembershipRequest(
                container: server.credentials.container, role: "Editors", userRecordName: server.userRecordName("alice")
            ))
            #expect(given.status == .ok, "\(given.text)")
            let notice = try #require(try await save(server, "n1", "Notice", ["text": .string("hi")], as: "alice")?.record)
            let bobs = try await save(server, "n1", "Notice", ["text": .string("bob")], as: "bob", operation: .update, tag: notice.recordChangeTag)
            #expect(bobs?.error?.serverErrorCode == .accessDenied)
            // Everyone reads a Notice (READ to "_world"), signed in or not.
            #expect(try await lookup(server, "n1", as: nil)?.record?.fields?["text"] == .string("hi"))
            #expect(try await query(server, "Notice", as: nil).status == .ok)
        }
    }

    @Test("READ to \"_creator\" alone: a lookup of another's record is ACCESS_DENIED, a query answers one's own")
    func creatorReads() async throws {
        try await withSchema { server in
            #expect(try await save(server, "d-alice", "Diary", ["entry": .string("dear diary")], as: "alice")?.record != nil)
            #expect(try await save(server, "d-bob", "Diary", ["entry": .string("bob's")], as: "bob")?.record != nil)
            #expect(try await lookup(server, "d-alice", as: "alice")?.record != nil)
            #expect(try await lookup(server, "d-alice", as: "bob")?.error?.serverErrorCode == .accessDenied)
            #expect(try await lookup(server, "d-alice", as: nil)?.error?.serverErrorCode == .accessDenied)

            let alices = try await query(server, "Diary", as: "alice").decode(QueryRecordsResponse.self)
            #expect(alices.records.compactMap { $0.record?.recordName } == ["d-alice"])
            let bobs = try await query(server, "Diary", as: "bob").decode(QueryRecordsResponse.self)
            #expect(bobs.records.compactMap { $0.record?.recordName } == ["d-bob"])
            let anonymous = try await query(server, "Diary", as: nil)
            #expect(anonymous.status == .forbidden && anonymous.errorBody?.serverErrorCode == .accessDenied, "\(anonymous.text)")
        }
    }

    @Test("a type the schema does not define keeps CloudKit's defaults; without a schema nothing changes")
    func defaults() async throws {
        try await withSchema { server in
            let created = try await save(server, "x", "Learned", ["n": .int64(1)], as: "alice")
            #expect(created?.record != nil)
            let bobs = try await save(server, "x", "Learned", ["n": .int64(2)], as: "bob", operation: .forceUpdate)
            #expect(bobs?.error?.serverErrorCode == .accessDenied)
            let read = try await lookup(server, "x", as: nil)
            #expect(read?.record != nil)
        }
        try await TestServer.run { server in
            let users = try await save(server, "u", "Users", ["n": .int64(1)], as: "alice")
            #expect(users?.record != nil)
        }
    }
}
