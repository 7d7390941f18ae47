import Foundation
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("the public database over HTTP")
struct PublicDatabaseTests {
    /// One row of the role matrix: who does what to alice's record, and what must come back.
    struct Case: Sendable, CustomTestStringConvertible {
        enum Expected: Sendable { case ok, status(Int, ServerErrorCode), item(ServerErrorCode) }
        var label: String
        var account: String?
        var operation: RecordOperationType
        var expected: Expected
        /// Whether alice's record must be unchanged afterwards.
        var unchanged: Bool
        var testDescription: String { label }
    }

    static let matrix: [Case] = [
        Case(label: "anonymous reads", account: nil, operation: .create, expected: .ok, unchanged: true),
        Case(label: "anonymous write → 421", account: nil, operation: .forceUpdate, expected: .status(421, .authenticationRequired), unchanged: true),
        Case(label: "bob creates his own", account: "bob", operation: .create, expected: .ok, unchanged: true),
        Case(label: "bob updates alice's → ACCESS_DENIED", account: "bob", operation: .update, expected: .item(.accessDenied), unchanged: true),
        Case(label: "bob force-updates alice's → ACCESS_DENIED", account: "bob", operation: .forceUpdate, expected: .item(.accessDenied), unchanged: true),
        Case(label: "bob deletes alice's → ACCESS_DENIED", account: "bob", operation: .delete, expected: .item(.accessDenied), unchanged: true),
        Case(label: "alice updates her own", account: "alice", operation: .update, expected: .ok, unchanged: false),
        Case(label: "alice deletes her own", account: "alice", operation: .delete, expected: .ok, unchanged: false),
    ]

    @Test("World reads, Authenticated creates, only the Creator updates or deletes", arguments: matrix)
    func roleMatrix(_ row: Case) async throws {
        try await TestServer.run { server in
            let original = Records.destination("louvre", caption: "Louvre")
            let saved = try await server.post("records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, original)]), database: "public")
            let tag = try #require(try saved.decode(RecordsResponse.self).records.first?.record?.recordChangeTag)

            let response: TestResponse
            if row.label.hasPrefix("anonymous reads") {
                response = try await server.post(
                    "records/lookup", LookupRecordsRequest(records: [.init(recordName: "louvre")]), database: "public", as: nil
                )
            } else {
                var record = row.operation == .create ? Records.destination("\(row.account ?? "x")-own", caption: "mine") : Records.destination("louvre", caption: "changed")
                record.recordChangeTag = tag
                response = try await server.post(
                    "records/modify", ModifyRecordsRequest(operations: [RecordOperation(row.operation, record)]), database: "public", as: row.account
                )
            }
            switch row.expected {
            case .ok:
                #expect(response.status == .ok, "\(row.label): \(response.text)")
                #expect(try response.decode(RecordsResponse.self).records.first?.record != nil, "\(row.label): \(response.text)")
            case .status(let code, let serverCode):
                #expect(response.status.code == code, "\(row.label)")
                #expect(response.errorBody?.serverErrorCode == serverCode, "\(row.label)")
            case .item(let serverCode):
                #expect(response.status == .ok, "\(row.label)")
                #expect(try response.decode(RecordsResponse.self).records.first?.error?.serverErrorCode == serverCode, "\(row.label)")
            }
            let after = try await server.post(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "louvre")]), database: "public", as: nil
            ).decode(RecordsResponse.self).records.first
            if row.unchanged {
                #expect(after?.record?.recordChangeTag == tag, "\(row.label): alice's record changed")
                #expect(after?.record?.fields?["caption"] == .string("Louvre"))
                #expect(after?.record?.created?.userRecordName == server.userRecordName("alice"))
            } else {
                #expect(after?.record?.recordChangeTag != tag, "\(row.label)")
            }
        }
    }

    @Test("the public database has only its default zone: zone operations and change feeds are refused")
    func onlyTheDefaultZone() async throws {
        try await TestServer.run { server in
            let list = try await server.raw("zones/list", database: "public", as: nil, body: nil, method: .get)
            let zones = try list.decode(ZonesResponse.self).zones.compactMap(\.value)
            #expect(zones.map(\.zoneID.zoneName) == [ZoneID.defaultZoneName])
            #expect(zones.first?.zoneID.ownerRecordName == "_defaultOwner")

            let create = try await server.post("zones/modify", ModifyZonesRequest(operations: [.init(.create, ZoneID(zoneName: "Mine"))]), database: "public")
            #expect(create.status == .badRequest && create.errorBody?.serverErrorCode == .badRequest)
            for operation in ["changes/database", "records/changes"] {
                let response = try await server.raw(operation, database: "public", body: ByteBuffer(string: #"{"zoneID":{"zoneName":"_defaultZone"}}"#))
                #expect(response.status == .badRequest, "\(operation)")
            }
            let changes = try await server.post("changes/zone", ZoneChangesRequest(zones: [.init(zoneID: .defaultZone())]), database: "public")
            #expect(changes.status == .badRequest)

            let custom = try await server.post(
                "records/modify",
                ModifyRecordsRequest(operations: [Records.create("x")], zoneID: ZoneID(zoneName: "Mine")), database: "public"
            )
            #expect(try custom.decode(RecordsResponse.self).records.first?.error?.serverErrorCode == .zoneNotFound)

            // Public records stay out of every private database.
            _ = try await server.post("records/modify", ModifyRecordsRequest(operations: [Records.create("shared-sight")]), database: "public")
            let privateLookup = try await server.lookup(["shared-sight"], zone: ZoneID.defaultZoneName)
            #expect(privateLookup.first?.error?.serverErrorCode == .notFound)
        }
    }
}
