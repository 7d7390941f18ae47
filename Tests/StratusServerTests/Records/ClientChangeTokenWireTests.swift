import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

/// `clientChangeToken` (`CKModifyRecordsOperation.clientChangeTokenData`): a records/modify that
/// changes a zone leaves its token there for the caller's device, and changes/zone answers it to
/// that device when asked (`X-Stratus-Extensions: clientChangeTokens`) — after a restart too —
/// and to no other device, user, or later incarnation of the zone. A plain CKWS client sees none.
@Suite struct ClientChangeTokenWireTests {
    static func modify(
        _ server: TestServer, _ operations: [RecordOperation], token: String?, device: String?, as account: String = "alice",
        zone: ZoneID = ZoneID(zoneName: "Trips"), database: String = "private"
    ) async throws -> TestResponse {
        var request = ModifyRecordsRequest(operations: operations, zoneID: zone)
        request.clientChangeToken = token
        return try await server.post("records/modify", request, database: database, as: account, device: device)
    }

    /// The client change token changes/zone answers `device` (asking for it unless `asks` is false).
    static func token(
        _ server: TestServer, device: String?, as account: String = "alice", asks: Bool = true,
        zone: ZoneID = ZoneID(zoneName: "Trips"), database: String = "private"
    ) async throws -> String? {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let device { headers[HTTPField.Name("X-Stratus-Device-ID")!] = device }
        if asks { headers[TestServer.extensionsHeader] = WireExtensions.clientChangeTokens.headerValue }
        let request = ZoneChangesRequest(zones: [.init(zoneID: zone)])
        let response = try await server.client.execute(
            uri: "\(TestServer.base)/\(database)/changes/zone?\(server.query(account))", method: .post, headers: headers,
            body: ByteBuffer(data: try JSONEncoder().encode(request))
        )
        #expect(response.status == .ok, "\(response.text)")
        #expect(asks || !response.text.contains("clientChangeToken"), "unasked: \(response.text)")
        guard case .success(let page)? = try response.decode(ZoneChangesResponse.self).zones.first else { return nil }
        return page.clientChangeToken
    }

    static let first = Data("edit-1".utf8).base64EncodedString()
    static let second = Data("edit-2".utf8).base64EncodedString()

    @Test func aModifyThatChangesTheZoneLeavesItsTokenForItsDeviceOnly() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            #expect(try await Self.modify(server, [Records.create("lisbon")], token: Self.first, device: "phone").status == .ok)
            #expect(try await Self.token(server, device: "phone") == Self.first)
            #expect(try await Self.token(server, device: "phone", asks: false) == nil)
            #expect(try await Self.token(server, device: "laptop") == nil, "another device's")
            #expect(try await Self.token(server, device: nil) == nil)

            #expect(try await Self.modify(server, [Records.create("porto")], token: Self.second, device: "phone").status == .ok)
            #expect(try await Self.token(server, device: "phone") == Self.second, "the last one")
        }
    }

    @Test func aModifyThatChangesNothingLeavesTheTokenItHad() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            #expect(try await Self.modify(server, [Records.create("lisbon")], token: Self.first, device: "phone").status == .ok)
            // Creating a record that exists changes nothing: the server did not take this edit.
            let refused = try await Self.modify(server, [Records.create("lisbon")], token: Self.second, device: "phone")
            #expect(refused.status == .ok && refused.text.contains("serverErrorCode"), "\(refused.text)")
            #expect(try await Self.token(server, device: "phone") == Self.first)
        }
    }

    /// A delete the server answers as done though the record was gone already (a retry after a
    /// lost answer) is a modify the server saw: its token is kept. One in the default zone, which
    /// has no change feed to answer it, keeps nothing and fails nothing.
    @Test func aRetriedDeleteKeepsItsTokenAndTheDefaultZoneKeepsNone() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            #expect(try await Self.modify(server, [Records.create("lisbon")], token: Self.first, device: "phone").status == .ok)
            let delete = RecordOperation(.forceDelete, Record(recordName: "lisbon"))
            #expect(try await Self.modify(server, [delete], token: Self.first, device: "phone").status == .ok)
            #expect(try await Self.modify(server, [delete], token: Self.second, device: "phone").status == .ok)
            #expect(try await Self.token(server, device: "phone") == Self.second)

            let inDefault = try await Self.modify(server, [Records.create("faro")], token: Self.first, device: "phone", zone: ZoneID(zoneName: ZoneID.defaultZoneName))
            #expect(inDefault.status == .ok && !inDefault.text.contains("serverErrorCode"), "\(inDefault.text)")
        }
    }

    /// A participant writing into the owner's zone through their shared database keeps a token of
    /// their own device, which the owner's devices never read.
    @Test func aParticipantsTokenInTheOwnersZoneIsTheirsAlone() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([
                TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readWrite)]),
            ], zone: "Trips")
            let guid = try #require(created.first?.record?.shortGUID)
            #expect(try await server.accept(guid, as: "bob").value?.participantStatus == .accepted)
            let shared = server.zoneID("Trips", of: "alice")
            let written = try await Self.modify(
                server, [Records.create("porto")], token: Self.second, device: "phone", as: "bob", zone: shared, database: "shared"
            )
            #expect(written.status == .ok && !written.text.contains("serverErrorCode"), "\(written.text)")
            #expect(try await Self.token(server, device: "phone", as: "bob", zone: shared, database: "shared") == Self.second)
            #expect(try await Self.token(server, device: "phone") == nil, "alice's phone is another client")
        }
    }

    @Test func aZoneMadeAgainStartsWithNoToken() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            #expect(try await Self.modify(server, [Records.create("lisbon")], token: Self.first, device: "phone").status == .ok)
            let deleted = try await server.post("zones/modify", ModifyZonesRequest(operations: [.init(.delete, ZoneID(zoneName: "Trips"))]))
            #expect(deleted.status == .ok)
            try await server.createZone("Trips")
            #expect(try await Self.token(server, device: "phone") == nil)
        }
    }

    @Test func theTokenOutlivesARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-client-token-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = try await TestServer.run(directory: directory) { server in
            try await server.createZone("Trips")
            #expect(try await Self.modify(server, [Records.create("lisbon")], token: Self.first, device: "phone").status == .ok)
            return server.credentials
        }
        try await TestServer.run(directory: directory, previous: credentials) { server in
            let token = try await Self.token(server, device: "phone")
            #expect(token == Self.first)
        }
    }

    @Test func aTokenTooLongIsRefusedAndNothingIsWritten() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let longest = String(repeating: "é", count: ModifyRecordsRequest.clientChangeTokenLimit)
            #expect(try await Self.modify(server, [Records.create("kept")], token: longest, device: "phone").status == .ok)
            let refused = try await Self.modify(server, [Records.create("lisbon")], token: longest + "x", device: "phone")
            #expect(refused.status == .badRequest && refused.text.contains("clientChangeToken"), "\(refused.text)")
            #expect(try await Self.token(server, device: "phone") == longest)
            let lookup = try await server.lookup(["lisbon"], zone: "Trips")
            guard case .failure(let missing)? = lookup.first else { Issue.record("lisbon was written"); return }
            #expect(missing.serverErrorCode == .notFound)
        }
    }
}
