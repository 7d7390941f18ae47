import HTTPTypes
import NIOCore
import StratusServerTesting
import Testing

/// A known endpoint asked with a method it does not serve: 405 naming the method to use, in
/// CloudKit's error shape; an unknown path stays 404.
@Suite("hardening: methods")
struct MethodTests {
    @Test("TRACE, PUT and GET on a POST endpoint answer 405 with Allow")
    func wrongMethods() async throws {
        try await TestServer.run { server in
            for method in [HTTPRequest.Method.trace, .put, .get, .delete] {
                let response = try await server.raw("records/modify", body: nil, method: method)
                #expect(response.status == .methodNotAllowed, "\(method): \(response.status)")
                #expect(response.headers[.allow] == "POST", "\(method)")
                #expect(response.errorBody?.serverErrorCode == .badRequest && response.errorBody?.reason.contains("use POST") == true)
            }
            let trace = try await server.client.execute(uri: "/stratus/v1/health", method: .trace, headers: [:], body: nil)
            #expect(trace.status == .methodNotAllowed && trace.headers[.allow] == "GET")
            let unknown = try await server.raw("records/nothing", body: ByteBuffer(string: "{}"))
            #expect(unknown.status == .notFound)
        }
    }
}
