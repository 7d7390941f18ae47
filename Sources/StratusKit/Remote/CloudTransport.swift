import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOFoundationCompat
import StratusModel

/// The credentials a client sends: the container environment's API token and, for a signed-in
/// user, a web auth token.
public struct CloudCredentials: Sendable, Hashable {
    public var apiToken: String
    public var webAuthToken: String?

    public init(apiToken: String, webAuthToken: String?) {
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
    }
}

/// POSTs CKWS requests as JSON and turns non-200 answers into ``CloudError``.
struct CloudTransport: Sendable {
    let baseURL: String
    let credentials: CloudCredentials
    let deviceID: String?
    let client: HTTPClient
    let timeout: TimeAmount = .seconds(60)

    func post<Body: Encodable, Response: Decodable>(_ path: String, _ body: Body, as: Response.Type) async throws(CloudError) -> Response {
        try await send(.POST, path, body, as: Response.self)
    }

    func get<Response: Decodable>(_ path: String, as: Response.Type) async throws(CloudError) -> Response {
        try await send(.GET, path, Optional<EmptyRequest>.none, as: Response.self)
    }

    /// GETs a URL the server handed out (a webcourier URL): no credentials, its own timeout.
    func get<Response: Decodable>(url: String, as: Response.Type, timeout: TimeAmount) async throws(CloudError) -> Response {
        try await send(.GET, url: url, Optional<EmptyRequest>.none, as: Response.self, timeout: timeout)
    }

    private func send<Body: Encodable, Response: Decodable>(
        _ method: HTTPMethod, _ path: String, _ body: Body?, as: Response.Type
    ) async throws(CloudError) -> Response {
        var query = "ckAPIToken=\(credentials.apiToken)"
        if let token = credentials.webAuthToken { query += "&ckWebAuthToken=\(token)" }
        return try await send(method, url: "\(baseURL)/\(path)?\(query)", body, as: Response.self, timeout: timeout)
    }

    private func send<Body: Encodable, Response: Decodable>(
        _ method: HTTPMethod, url: String, _ body: Body?, as: Response.Type, timeout: TimeAmount
    ) async throws(CloudError) -> Response {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        var bytes: ByteBuffer?
        if let body {
            do { bytes = ByteBuffer(data: try JSONEncoder().encode(body)) } catch { throw CloudError(.networkFailure, "\(path): \(error)") }
        }
        let data = try await exchange(method, url: url, body: bytes, contentType: "application/json", timeout: timeout)
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw CloudError(.serverRejectedRequest, "\(path): cannot decode the answer: \(error)")
        }
    }

    /// One request with a raw body; the answer's bytes (up to `limit`) when it is a 200, else the
    /// CloudKit error it carries.
    func exchange(
        _ method: HTTPMethod, url: String, body: ByteBuffer?, contentType: String, timeout: TimeAmount, limit: Int = 64 << 20
    ) async throws(CloudError) -> Data {
        let path = url.split(separator: "?").first.map(String.init) ?? url
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: contentType)
        if let deviceID { request.headers.add(name: "X-Stratus-Device-ID", value: deviceID) }
        if let body { request.body = .bytes(body) }
        let bytes: ByteBuffer
        let status: UInt
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = response.status.code
            bytes = try await response.body.collect(upTo: limit)
        } catch {
            throw CloudError(.networkFailure, "\(path): \(error)")
        }
        let data = Data(buffer: bytes)
        guard status == 200 else {
            guard let body = try? JSONDecoder().decode(ErrorBody.self, from: data) else {
                throw CloudError(.serverRejectedRequest, "\(path): HTTP \(status)")
            }
            throw CloudError(
                serverErrorCode: body.serverErrorCode, reason: body.reason, retryAfter: body.retryAfter,
                ckErrorCode: body.ckErrorCode, serverRecord: nil, userDidResetEncryptedData: body.userDidResetEncryptedData
            )
        }
        return data
    }
}
