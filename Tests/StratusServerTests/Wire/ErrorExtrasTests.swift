import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// What Stratus adds for its own client beside Apple's keys — the server's record on a conflict
/// (`serverRecords`) — is written only for a client that asks, as `nativeErrorCode` is
/// (NativeErrorCodeTests); why a zone went (`deletionReason` in a database change feed,
/// `userDidResetEncryptedData` on `ZONE_NOT_FOUND`) is told to every client that tests an account
/// event, under names no Apple client reads.
@Suite struct ErrorExtrasTests {
    static let askedKeys: Set<String> = ["serverRecord", "nativeErrorCode"]

    /// A request as a plain CKWS client sends it (no extension header), or asking for `asked`.
    static func send(
        _ server: TestServer, _ operation: String, _ body: some Encodable, database: String = "private", asking asked: WireExtensions?
    ) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "text/plain"]
        if let asked { headers[TestServer.extensionsHeader] = asked.headerValue }
        return try await server.client.execute(
            uri: "\(TestServer.base)/\(database)/\(operation)?\(server.query("alice"))", method: .post, headers: headers,
            body: ByteBuffer(data: try JSONEncoder().encode(body))
        )
    }

    /// Every key anywhere in a JSON answer.
    static func keys(in text: String) throws -> Set<String> {
        var found = Set<String>()
        func walk(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, inner) in object {
                    found.insert(key)
                    walk(inner)
                }
            } else if let array = value as? [Any] {
                array.forEach(walk)
            }
        }
        walk(try JSONSerialization.jsonObject(with: Data(text.utf8)))
        return found
    }

    @Test("a conflict and an existing record answer a plain client Apple's keys and a client that asks the server's record; a reset zone is told to both")
    func extrasAreAskedFor() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            let firstTag = try #require(created.first?.record?.recordChangeTag)
            var update = Records.destination("paris", caption: "Paris, France")
            update.recordChangeTag = firstTag
            _ = try await server.modify([RecordOperation(.update, update)], zone: "Trips")
            try await server.createZone("Diary")
            _ = try await server.modify([Records.create("d1")], zone: "Diary")
            // A feed that knew the zone learns it went (a fetch with no token lists no deletions).
            let before = try await Self.send(server, "changes/database", DatabaseChangesRequest(), asking: nil)
            let token = try JSONDecoder().decode(DatabaseChangesResponse.self, from: Data(before.text.utf8)).syncToken
            try await ZoneResetErrorTests.reset("Diary", .encryptedDataReset, on: server)

            var stale = Records.destination("paris", caption: "Lutetia")
            stale.recordChangeTag = firstTag
            let trips = ZoneID(zoneName: "Trips")
            let asked: [(label: String, body: ModifyRecordsRequest)] = [
                ("a stale tag (CONFLICT)", ModifyRecordsRequest(operations: [RecordOperation(.update, stale)], zoneID: trips)),
                ("a create of an existing record (EXISTS)", ModifyRecordsRequest(operations: [Records.create("paris")], zoneID: trips)),
            ]
            for (label, body) in asked {
                let plain = try await Self.send(server, "records/modify", body, asking: nil)
                #expect(plain.status == .ok, "\(label): \(plain.text)")
                #expect(try Self.keys(in: plain.text).isDisjoint(with: Self.askedKeys), "\(label), unasked: \(plain.text)")
                let answer = try await Self.send(server, "records/modify", body, asking: .serverRecords)
                let record = try JSONDecoder().decode(RecordsResponse.self, from: Data(answer.text.utf8)).records.first?.error?.serverRecord
                #expect(record?.fields?["caption"] == .string("Paris, France"), "\(label), asked: \(answer.text)")
            }
            let told: [(label: String, operation: String, body: any Encodable & Sendable, expected: String)] = [
                ("a zone lost to an encrypted-data reset, looked up", "zones/lookup", LookupZonesRequest(zones: [ZoneID(zoneName: "Diary")]),
                 "userDidResetEncryptedData"),
                ("a write into it", "records/modify", ModifyRecordsRequest(operations: [Records.create("d2")], zoneID: ZoneID(zoneName: "Diary")),
                 "userDidResetEncryptedData"),
                ("the database's changes", "changes/database", DatabaseChangesRequest(syncToken: token), "deletionReason"),
            ]
            for (label, operation, body, expected) in told {
                let plain = try await Self.send(server, operation, body, asking: nil)
                #expect(try Self.keys(in: plain.text).contains(expected), "\(label): \(plain.text)")
                #expect(try Self.keys(in: plain.text).isDisjoint(with: Self.askedKeys), "\(label), unasked: \(plain.text)")
            }
        }
    }

    @Test("no per-record error of any web code writes the server's record unasked, by either writer")
    func everyWebCodeUnasked() throws {
        let record = Record(recordName: "a", recordType: "T")
        for code in ServerErrorCode.documented {
            let response = RecordsResponse(records: [.failure(RecordError(recordName: "a", serverErrorCode: code, reason: "r", serverRecord: record))])
            let plain = String(decoding: try JSONEncoder().encode(response), as: UTF8.self)
            #expect(!(try Self.keys(in: plain).contains("serverRecord")), "\(code): \(plain)")
            let written = String(decoding: try response.jsonBytes(), as: UTF8.self)
            #expect(!(try Self.keys(in: written).contains("serverRecord")), "\(code), the fast writer: \(written)")
            let encoder = JSONEncoder()
            encoder.userInfo[.wireExtensions] = WireExtensions.serverRecords
            let asked = String(decoding: try encoder.encode(response), as: UTF8.self)
            #expect(try Self.keys(in: asked).contains("serverRecord"), "\(code): \(asked)")
            let fastAsked = String(decoding: try response.jsonBytes(extensions: .serverRecords), as: UTF8.self)
            #expect(try Self.keys(in: fastAsked).contains("serverRecord"), "\(code), the fast writer: \(fastAsked)")
        }
    }
}
