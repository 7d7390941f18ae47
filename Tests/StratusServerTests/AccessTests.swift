import Foundation
import HTTPTypes
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("identity and isolation over HTTP")
struct AccessTests {
    @Test("a private request without a web auth token gets 421 AUTHENTICATION_REQUIRED with a redirectURL")
    func authenticationRequired() async throws {
        try await TestServer.run { server in
            for operation in ["zones/list", "records/modify", "changes/database", "changes/zone"] {
                let response = try await server.raw(operation, as: nil, body: ByteBuffer(string: "{}"))
                #expect(response.status.code == 421, "\(operation)")
                let body = try #require(response.errorBody)
                #expect(body.serverErrorCode == .authenticationRequired)
                #expect(body.redirectURL?.contains("/stratus/v1/auth/signin") == true)
                #expect(!body.uuid.isEmpty)
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true)
            }
        }
    }

    @Test("bad credentials get 401 AUTHENTICATION_FAILED")
    func badCredentials() async throws {
        try await TestServer.run { server in
            let base = "\(TestServer.base)/private/zones/list"
            let apiToken = server.credentials.apiToken
            let cases = [
                "\(base)",
                "\(base)?ckAPIToken=\(String(repeating: "0", count: 64))",
                "/database/1/\(server.credentials.container)/production/private/zones/list?ckAPIToken=\(apiToken)",
            ]
            for uri in cases {
                let response = try await server.client.execute(uri: uri, method: .get, headers: [:], body: nil)
                #expect(response.status.code == 401, "\(uri)")
                #expect(response.errorBody?.serverErrorCode == .authenticationFailed, "\(uri)")
            }
        }
    }

    @Test("a web auth token the server never issued asks for sign-in (421 with a redirectURL), as a revoked one does, in every database")
    func unknownWebAuthToken() async throws {
        try await TestServer.run { server in
            for database in ["private", "shared", "public"] {
                let uri = "\(TestServer.base)/\(database)/zones/list?ckAPIToken=\(server.credentials.apiToken)&ckWebAuthToken=not-a-real-token"
                let response = try await server.client.execute(uri: uri, method: .get, headers: [:], body: nil)
                #expect(response.status.code == 421, "\(database): \(response.text)")
                #expect(response.errorBody?.serverErrorCode == .authenticationRequired, "\(response.text)")
                #expect(response.errorBody?.redirectURL?.contains("/stratus/v1/auth/signin") == true, "\(response.text)")
            }
        }
    }

    @Test("a container the server does not have is BAD_REQUEST with nativeErrorCode 5 (badContainer) for a client that asks, not a sign-in matter")
    func unknownContainer() async throws {
        try await TestServer.run { server in
            let uri = "/database/1/iCloud.com.example.Other/development/private/zones/list?ckAPIToken=\(server.credentials.apiToken)"
            let plain = try await server.client.execute(uri: uri, method: .get, headers: [:], body: nil)
            #expect(plain.status.code == 400 && plain.errorBody?.nativeErrorCode == nil, "\(plain.text)")
            let asking: HTTPFields = [TestServer.extensionsHeader: "nativeErrorCodes"]
            let response = try await server.client.execute(uri: uri, method: .get, headers: asking, body: nil)
            #expect(response.status.code == 400, "\(response.text)")
            #expect(response.errorBody?.serverErrorCode == .badRequest, "\(response.text)")
            #expect(response.errorBody?.nativeErrorCode == CKErrorCodeNumber.badContainer, "\(response.text)")
            #expect(response.errorBody?.reason.contains("no container 'iCloud.com.example.Other'") == true, "\(response.text)")
        }
    }

    @Test("alice's tokens can neither read nor write bob's private zones")
    func privateDatabasesAreIsolated() async throws {
        try await TestServer.run { server in
            try await server.createZone("Secret", as: "bob")
            let saved = try await server.modify([Records.create("diary", caption: "bob's")], zone: "Secret", as: "bob")
            let bobTag = try #require(saved.first?.record?.recordChangeTag)
            let bobZone = ZoneID(zoneName: "Secret", ownerRecordName: server.userRecordName("bob"))

            // Addressing bob's zone by owner name.
            let lookup = try await server.call(
                "records/lookup", LookupRecordsRequest(records: [.init(recordName: "diary")], zoneID: bobZone), expecting: RecordsResponse.self
            )
            #expect(lookup.records.first?.error?.serverErrorCode == .zoneNotFound)
            let write = try await server.call(
                "records/modify",
                ModifyRecordsRequest(operations: [RecordOperation(.forceUpdate, Records.destination("diary", caption: "alice was here"))], zoneID: bobZone),
                expecting: RecordsResponse.self
            )
            #expect(write.records.first?.error?.serverErrorCode == .zoneNotFound)
            let delete = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, bobZone)]), expecting: ZonesResponse.self
            )
            guard case .failure(let deleteError)? = delete.zones.first else { throw TestFailure("alice deleted bob's zone") }
            #expect(deleteError.serverErrorCode == .zoneNotFound)
            let changes = try await server.call(
                "changes/zone", ZoneChangesRequest(zones: [.init(zoneID: bobZone)]), expecting: ZoneChangesResponse.self
            )
            guard case .failure(let changesError)? = changes.zones.first else { throw TestFailure("alice read bob's changes") }
            #expect(changesError.serverErrorCode == .zoneNotFound)

            // By name alone, "Secret" is alice's own (missing) zone.
            let own = try await server.lookup(["diary"], zone: "Secret")
            #expect(own.first?.error?.serverErrorCode == .zoneNotFound)
            let list = try await server.call("zones/list", [String: String](), expecting: ZonesResponse.self)
            #expect(!list.zones.contains { if case .success(let zone) = $0 { zone.zoneID.zoneName == "Secret" } else { false } })
            let feed = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self)
            #expect(!feed.zones.contains { $0.zoneID.zoneName == "Secret" })

            // Alice creating her own "Secret" leaves bob's untouched.
            try await server.createZone("Secret")
            _ = try await server.modify([RecordOperation(.forceReplace, Records.destination("diary", caption: "alice's"))], zone: "Secret")
            let bobs = try await server.lookup(["diary"], zone: "Secret", as: "bob")
            #expect(bobs.first?.record?.fields?["caption"] == .string("bob's"))
            #expect(bobs.first?.record?.recordChangeTag == bobTag)
        }
    }

    @Test("admin endpoints need the admin token")
    func adminNeedsToken() async throws {
        try await TestServer.run { server in
            let request = CreateAccountRequest(email: "dave@example.com")
            let refused = try await server.admin("accounts", request, token: String(repeating: "f", count: 64))
            #expect(refused.status.code == 401)
            let created = try await server.admin("accounts", request)
            #expect(created.status == .ok)
            let account = try created.decode(AccountInfo.self)
            #expect(account.userRecordName.count == 33 && account.userRecordName.hasPrefix("_"))
            let duplicate = try await server.admin("accounts", request)
            #expect(duplicate.errorBody?.serverErrorCode == .exists)

            let token = try await server.admin(
                "web-auth-tokens", CreateWebAuthTokenRequest(container: server.credentials.container, email: "dave@example.com")
            ).decode(CreateWebAuthTokenResponse.self)
            #expect(token.webAuthToken.count >= 100)
            let uri = "\(TestServer.base)/private/zones/list?ckAPIToken=\(server.credentials.apiToken)&ckWebAuthToken=\(token.webAuthToken)"
            let list = try await server.client.execute(uri: uri, method: .get, headers: [:], body: nil)
            let zones = try list.decode(ZonesResponse.self)
            guard case .success(let zone)? = zones.zones.first else { throw TestFailure("dave has no default zone") }
            #expect(zone.zoneID.zoneName == ZoneID.defaultZoneName)
            #expect(zone.zoneID.ownerRecordName == account.userRecordName)
        }
    }
}
