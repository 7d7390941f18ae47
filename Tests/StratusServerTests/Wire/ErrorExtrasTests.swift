import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// What Stratus adds for its own client beside Apple's keys — the server's record on a conflict
/// (`serverRecords`), why a zone went (`zoneDeletionReasons`: `deletionReason` in a database
/// change feed, `userDidResetEncryptedData` on `ZONE_NOT_FOUND`) — is written only for a client
/// that asks, as `nativeErrorCode` is (NativeErrorCodeTests): a plain CKWS client gets Apple's keys.
@Suite struct ErrorExtrasTests {
    static let extraKeys: Set<String> = ["serverRecord", "deletionReason", "userDidResetEncryptedData"]

    /// A request as a plain CKWS client sends it (no extension header), or asking for `asked`.
    static func send(_ server: TestServer, _ operation: String, _ body: some Encodable, asking asked: WireExtensions?) async throws -> TestResponse {
        var headers: HTTPFields = [.contentType: "text/plain"]
        if let asked { headers[TestServer.extensionsHeader] = asked.headerValue }
        return try await server.client.execute(
            uri: "\(TestServer.base)/private/\(operation)?\(server.query("alice"))", method: .post, headers: headers,
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

    @Test("a conflict, an existing record, a reset zone and a database feed answer a plain client Apple's keys, and a client that asks the extras")
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
            let cases: [(label: String, operation: String, body: any Encodable & Sendable, extras: WireExtensions, expected: String)] = [
                ("a stale tag (CONFLICT)", "records/modify", ModifyRecordsRequest(operations: [RecordOperation(.update, stale)], zoneID: trips),
                 .serverRecords, "serverRecord"),
                ("a create of an existing record (EXISTS)", "records/modify", ModifyRecordsRequest(operations: [Records.create("paris")], zoneID: trips),
                 .serverRecords, "serverRecord"),
                ("a zone lost to an encrypted-data reset, looked up", "zones/lookup", LookupZonesRequest(zones: [ZoneID(zoneName: "Diary")]),
                 .zoneDeletionReasons, "userDidResetEncryptedData"),
                ("a write into it", "records/modify", ModifyRecordsRequest(operations: [Records.create("d2")], zoneID: ZoneID(zoneName: "Diary")),
                 .zoneDeletionReasons, "userDidResetEncryptedData"),
                ("the database's changes", "changes/database", DatabaseChangesRequest(syncToken: token), .zoneDeletionReasons, "deletionReason"),
            ]
            for (label, operation, body, extras, expected) in cases {
                let plain = try await Self.send(server, operation, body, asking: nil)
                #expect(plain.status == .ok, "\(label): \(plain.text)")
                #expect(try Self.keys(in: plain.text).isDisjoint(with: Self.extraKeys), "\(label), unasked: \(plain.text)")
                let asked = try await Self.send(server, operation, body, asking: extras)
                #expect(try Self.keys(in: asked.text).contains(expected), "\(label), asked: \(asked.text)")
            }
        }
    }

    @Test("no per-record, per-zone or request error of any web code writes an extra unasked, by either writer")
    func everyWebCodeUnasked() throws {
        let record = Record(recordName: "a", recordType: "T")
        for code in ServerErrorCode.documented {
            let errors: [any Encodable] = [
                ErrorBody(uuid: "u", serverErrorCode: code, reason: "r", userDidResetEncryptedData: true),
                RecordsResponse(records: [.failure(RecordError(
                    recordName: "a", serverErrorCode: code, reason: "r", serverRecord: record, userDidResetEncryptedData: true
                ))]),
                ZoneError(zoneID: ZoneID(zoneName: "Z"), serverErrorCode: code, reason: "r", userDidResetEncryptedData: true),
            ]
            for error in errors {
                let plain = String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
                #expect(try Self.keys(in: plain).isDisjoint(with: Self.extraKeys), "\(code): \(plain)")
                let encoder = JSONEncoder()
                encoder.userInfo[.wireExtensions] = WireExtensions([.serverRecords, .zoneDeletionReasons])
                let asked = String(decoding: try encoder.encode(error), as: UTF8.self)
                #expect(asked.contains("\"userDidResetEncryptedData\":true"), "\(code): \(asked)")
            }
            let written = String(decoding: try RecordsResponse(records: [
                .failure(RecordError(recordName: "a", serverErrorCode: code, reason: "r", serverRecord: record, userDidResetEncryptedData: true)),
            ]).jsonBytes(), as: UTF8.self)
            #expect(try Self.keys(in: written).isDisjoint(with: Self.extraKeys), "\(code), the fast writer: \(written)")
        }
        let gone = Zone(zoneID: ZoneID(zoneName: "Z"), deleted: true, deletionReason: .purged)
        #expect(!String(decoding: try JSONEncoder().encode(gone), as: UTF8.self).contains("deletionReason"))
    }
}
