import Foundation
import HTTPTypes
import NIOCore
import StratusServer
import StratusServerTesting
import Testing

/// Browsers may call Stratus: preflights are answered and every answer, errors included, carries
/// the CORS headers for the configured origin; without an origin configured, none are sent.
@Suite("CORS")
struct CORSTests {
    static let origin = HTTPField.Name("Origin")!

    @Test("preflight and answers carry Access-Control-Allow-* for the configured origin")
    func corsHeaders() async throws {
        try await TestServer.run(http: HTTPOptions(corsOrigin: "https://app.example.com")) { server in
            let path = "\(TestServer.base)/public/records/query?\(server.query(nil))"
            let preflight = try await server.client.execute(
                uri: path, method: .options,
                headers: [CORSTests.origin: "https://app.example.com", HTTPField.Name("Access-Control-Request-Method")!: "POST"],
                body: nil
            )
            #expect(preflight.status == .noContent || preflight.status == .ok, "\(preflight.status)")
            #expect(preflight.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "https://app.example.com")
            #expect(preflight.headers[HTTPField.Name("Access-Control-Allow-Methods")!]?.contains("POST") == true)

            let answer = try await server.client.execute(
                uri: path, method: .post, headers: [CORSTests.origin: "https://app.example.com"],
                body: ByteBuffer(string: #"{"query":{"recordType":"Nothing"}}"#)
            )
            #expect(answer.status == .ok && answer.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == "https://app.example.com")
            let failure = try await server.client.execute(
                uri: "\(TestServer.base)/private/records/query?\(server.query(nil))", method: .post,
                headers: [CORSTests.origin: "https://app.example.com"], body: ByteBuffer(string: "{}")
            )
            #expect(failure.status.code == 421 && failure.headers[HTTPField.Name("Access-Control-Allow-Origin")!] != nil, "errors too")
            #expect(failure.headers[HTTPField.Name("Access-Control-Expose-Headers")!]?.contains("X-Request-ID") == true)
        }
    }

    @Test("no origin configured: no CORS headers")
    func noCORS() async throws {
        try await TestServer.run { server in
            let answer = try await server.client.execute(
                uri: "\(TestServer.base)/public/records/query?\(server.query(nil))", method: .post,
                headers: [CORSTests.origin: "https://app.example.com"], body: ByteBuffer(string: #"{"query":{"recordType":"Nothing"}}"#)
            )
            #expect(answer.status == .ok && answer.headers[HTTPField.Name("Access-Control-Allow-Origin")!] == nil)
        }
    }
}
