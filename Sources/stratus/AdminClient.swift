import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Calls a running server's admin API (`/stratus/v1/admin/…`) with the admin token, prints the
/// JSON answer, and fails the command on anything but 200.
struct AdminClient {
    let server: String
    let adminToken: String

    func post<Body: Encodable>(_ path: String, _ body: Body) async throws {
        var request = HTTPClientRequest(url: "\(server)/stratus/v1/admin/\(path)")
        request.method = .POST
        request.headers.add(name: "Authorization", value: "Bearer \(adminToken)")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let text = try await response.body.collect(upTo: 16 << 20)
        print(String(buffer: text))
        guard response.status == .ok else { throw ExitCodeError() }
    }
}

/// A failed admin call: the answer was printed, the command exits 1.
struct ExitCodeError: Error {}
