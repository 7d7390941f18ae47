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

/// Server-to-server keys over real HTTP: requests signed with swift-crypto and with the openssl
/// command line (an independent implementation) are accepted on the public database without a
/// ckAPIToken; every refusal answers AUTHENTICATION_FAILED (or ACCESS_DENIED off the public database).
@Suite struct ServerToServerTests {
    /// Signs like a CKWS client: `date:Base64(SHA-256(body)):path`, DER, Base64.
    struct Signer: Sendable {
        var sign: @Sendable (Data) throws -> Data
        var publicKeyPEM: String

        static func swiftCrypto() -> Signer {
            let key = P256.Signing.PrivateKey()
            let raw = key.rawRepresentation
            return Signer(
                sign: { try P256.Signing.PrivateKey(rawRepresentation: raw).signature(for: $0).derRepresentation },
                publicKeyPEM: key.publicKey.pemRepresentation
            )
        }

        /// A key made and used by `openssl`, as Apple's documentation does it.
        static func openssl() throws -> Signer {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("s2s-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let key = directory.appendingPathComponent("eckey.pem").path
            _ = try run(["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", key])
            let pem = String(decoding: try run(["ec", "-in", key, "-pubout"]), as: UTF8.self)
            return Signer(sign: { try run(["dgst", "-sha256", "-sign", key], input: $0) }, publicKeyPEM: pem)
        }

        static func run(_ arguments: [String], input: Data? = nil) throws -> Data {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
            process.arguments = arguments
            let output = Pipe()
            let inputPipe = Pipe()
            process.standardOutput = output
            process.standardError = Pipe()
            process.standardInput = inputPipe
            try process.run()
            if let input { inputPipe.fileHandleForWriting.write(input) }
            try inputPipe.fileHandleForWriting.close()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw TestFailure("openssl \(arguments.first ?? "") failed") }
            return data
        }

        /// `stamp` replaces the date as sent and signed (Apple's form of `date` when `nil`).
        func headers(body: Data, path: String, keyID: String, date: Date = Date(), signedBody: Data? = nil, stamp: String? = nil) throws -> HTTPFields {
            let stamp = stamp ?? date.formatted(.iso8601)
            let hash = Data(SHA256.hash(data: signedBody ?? body)).base64EncodedString()
            let signature = try sign(Data("\(stamp):\(hash):\(path)".utf8)).base64EncodedString()
            return [
                HTTPField.Name("X-Apple-CloudKit-Request-KeyID")!: keyID,
                HTTPField.Name("X-Apple-CloudKit-Request-ISO8601Date")!: stamp,
                HTTPField.Name("X-Apple-CloudKit-Request-SignatureV1")!: signature,
                .contentType: "application/json",
            ]
        }
    }

    static let queryPath = "\(TestServer.base)/public/records/query"

    @Test(arguments: ["swift-crypto", "openssl"])
    func signedRequestsReachThePublicDatabaseAndEveryRefusalIsAuthenticationFailed(signerName: String) async throws {
        let signer = signerName == "openssl" ? try Signer.openssl() : Signer.swiftCrypto()
        try await TestServer.run { server in
            let registered = try await server.admin(
                "keys", RegisterServerKeyRequest(container: DevSeeder.container, environment: .development, publicKeyPEM: signer.publicKeyPEM)
            )
            #expect(registered.status == .created, "\(registered.text)")
            let keyID = try registered.decode(RegisterServerKeyResponse.self).keyID
            #expect(keyID.count == 64)
            let place = RecordOperation(.create, Record(recordName: "pub1", recordType: "Place", fields: ["name": .string("x")]))
            _ = try await server.post("records/modify", ModifyRecordsRequest(operations: [place]), database: "public")

            let body = try JSONEncoder().encode(QueryRecordsRequest(query: Query(recordType: "Place")))
            func send(_ headers: HTTPFields, body: Data, path: String = Self.queryPath) async throws -> TestResponse {
                try await server.client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(data: body))
            }
            let headers = try signer.headers(body: body, path: Self.queryPath, keyID: keyID)
            let accepted = try await send(headers, body: body)
            #expect(accepted.status == .ok && accepted.text.contains("pub1"), "\(accepted.text)")

            var refusals: [String: TestResponse] = [:]
            refusals["replay"] = try await send(headers, body: body)
            let other = try JSONEncoder().encode(QueryRecordsRequest(query: Query(recordType: "Other")))
            refusals["body changed"] = try await send(try signer.headers(body: other, path: Self.queryPath, keyID: keyID, signedBody: body), body: other)
            refusals["old date"] = try await send(try signer.headers(body: body, path: Self.queryPath, keyID: keyID, date: Date() - 1_800), body: body)
            refusals["unknown key"] = try await send(try signer.headers(body: body, path: Self.queryPath, keyID: String(repeating: "0", count: 64)), body: body)
            refusals["other path"] = try await send(try signer.headers(body: body, path: "/database/1/x", keyID: keyID), body: body)
            for (name, response) in refusals {
                #expect(response.status == .unauthorized && response.errorBody?.serverErrorCode == .authenticationFailed, "\(name): \(response.text)")
            }
            let privatePath = "\(TestServer.base)/private/zones/list"
            let denied = try await send(try signer.headers(body: Data(), path: privatePath, keyID: keyID), body: Data(), path: privatePath)
            #expect(denied.status == .forbidden, "\(denied.text)")

            // Revoked: refused; revoking again is not found.
            #expect(try await server.admin("keys/\(keyID)", method: .delete).status == .ok)
            let revoked = try await send(try signer.headers(body: body, path: Self.queryPath, keyID: keyID), body: body)
            #expect(revoked.status == .unauthorized)
            #expect(try await server.admin("keys/\(keyID)", method: .delete).status == .notFound)
        }
    }

    @Test func aKeyThatIsNotP256PEMIsRefused() async throws {
        try await TestServer.run { server in
            let response = try await server.admin(
                "keys", RegisterServerKeyRequest(container: DevSeeder.container, environment: .development, publicKeyPEM: "not a key")
            )
            #expect(response.status == .badRequest && response.text.contains("P-256"), "\(response.text)")
        }
    }
}
