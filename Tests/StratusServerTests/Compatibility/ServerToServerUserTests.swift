import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// Server-to-server keys and the users endpoints: a key is the container's developer, whose
/// identity users/caller and users/current answer (Apple's Node sample starts with a signed
/// users/caller); it looks users up (Apple's own S2S example is users/lookup/email) but may not
/// discover them (401, as Apple's service answers); and the signed date is exactly Apple's
/// `yyyy-MM-ddTHH:mm:ssZ`.
@Suite struct ServerToServerUserTests {
    typealias Signer = ServerToServerTests.Signer

    static func register(_ signer: Signer, on server: TestServer) async throws -> String {
        let registered = try await server.admin(
            "keys", RegisterServerKeyRequest(container: DevSeeder.container, environment: .development, publicKeyPEM: signer.publicKeyPEM)
        )
        #expect(registered.status == .created, "\(registered.text)")
        return try registered.decode(RegisterServerKeyResponse.self).keyID
    }

    static func send(
        _ signer: Signer, keyID: String, path: String, body: Data, method: HTTPRequest.Method = .post, stamp: String? = nil,
        on server: TestServer
    ) async throws -> TestResponse {
        let headers = try signer.headers(body: body, path: path, keyID: keyID, stamp: stamp)
        return try await server.client.execute(uri: path, method: method, headers: headers, body: method == .get ? nil : ByteBuffer(data: body))
    }

    @Test func aServerKeyIsTheDeveloperLooksUpButDoesNotDiscover() async throws {
        let signer = Signer.swiftCrypto()
        try await TestServer.run { server in
            let keyID = try await Self.register(signer, on: server)
            let bob = try #require(server.credentials.account("bob"))
            let users = "\(TestServer.base)/public/users"

            let byEmail = try JSONEncoder().encode(LookupUsersRequest(users: [.init(emailAddress: bob.email)]))
            let email = try await Self.send(signer, keyID: keyID, path: "\(users)/lookup/email", body: byEmail, on: server)
            #expect(email.status == .ok, "\(email.text)")
            #expect(try email.decode(UsersResponse.self).users.map(\.userRecordName) == [bob.userRecordName])

            let byID = try JSONEncoder().encode(LookupUsersRequest(users: [.init(userRecordName: bob.userRecordName)]))
            let id = try await Self.send(signer, keyID: keyID, path: "\(users)/lookup/id", body: byID, on: server)
            #expect(id.status == .ok, "\(id.text)")
            #expect(try id.decode(UsersResponse.self).users.count == 1)

            let lookup = try JSONEncoder().encode(DiscoverUsersRequest(lookupInfos: [LookupInfo(emailAddress: bob.email)]))
            let discover = try await Self.send(signer, keyID: keyID, path: "\(users)/discover", body: lookup, on: server)
            #expect(discover.status == .unauthorized && discover.errorBody?.serverErrorCode == .authenticationFailed, "\(discover.text)")
            let discoverAll = try await Self.send(signer, keyID: keyID, path: "\(users)/discover", body: Data(), method: .get, on: server)
            #expect(discoverAll.status == .unauthorized && discoverAll.errorBody?.serverErrorCode == .authenticationFailed, "\(discoverAll.text)")

            // Signed GETs with an empty body, as CloudKit JS's setUpAuth() sends users/caller.
            let caller = try await Self.send(signer, keyID: keyID, path: "\(users)/caller", body: Data(), method: .get, on: server)
            #expect(caller.status == .ok, "\(caller.text)")
            #expect(try caller.decode(CallerIdentityResponse.self).userRecordName == ServerKeys.developer)
            let current = try await Self.send(signer, keyID: keyID, path: "\(users)/current", body: Data(), method: .get, on: server)
            #expect(current.status == .ok, "\(current.text)")
            #expect(try current.decode(UserInfo.self) == UserInfo(userRecordName: ServerKeys.developer))
        }
    }

    @Test func onlyApplesDateFormIsAcceptedAndRawSignaturesStillAre() async throws {
        let signer = Signer.swiftCrypto()
        try await TestServer.run { server in
            let keyID = try await Self.register(signer, on: server)
            let path = ServerToServerTests.queryPath
            let body = try JSONEncoder().encode(QueryRecordsRequest(query: Query(recordType: "Place")))
            let now = Date().formatted(.iso8601)
            #expect(now.count == 20 && now.hasSuffix("Z"))
            let base = String(now.dropLast())
            for stamp in [base + ".123Z", base + "+00:00", base.replacingOccurrences(of: "T", with: " ") + "Z"] {
                let refused = try await Self.send(signer, keyID: keyID, path: path, body: body, stamp: stamp, on: server)
                #expect(refused.status == .unauthorized && refused.errorBody?.serverErrorCode == .authenticationFailed, "\(stamp): \(refused.text)")
            }
            #expect(try await Self.send(signer, keyID: keyID, path: path, body: body, on: server).status == .ok)

            // The same key signing r‖s (64 raw bytes) instead of DER is accepted too.
            let key = P256.Signing.PrivateKey()
            let raw = key.rawRepresentation
            let rawSigner = Signer(
                sign: { try P256.Signing.PrivateKey(rawRepresentation: raw).signature(for: $0).rawRepresentation },
                publicKeyPEM: key.publicKey.pemRepresentation
            )
            let rawKeyID = try await Self.register(rawSigner, on: server)
            let accepted = try await Self.send(rawSigner, keyID: rawKeyID, path: path, body: body, on: server)
            #expect(accepted.status == .ok, "\(accepted.text)")
        }
    }
}
