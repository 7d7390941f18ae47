import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import StratusCloudKit
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

/// StratusKit's view of the house's one HTTP client (StratusCloudKit's `CKWSTransport`): the
/// same requests, failures as ``CloudError`` through the same CKError mapping.
struct CloudTransport: Sendable {
    let base: CKWSTransport

    init(baseURL: String, credentials: CloudCredentials, deviceID: String?, client: HTTPClient) {
        self.base = CKWSTransport(
            baseURL: baseURL, apiToken: credentials.apiToken, webAuthToken: credentials.webAuthToken, deviceID: deviceID, client: client
        )
    }

    func post<Body: Encodable, Response: Decodable>(_ path: String, _ body: Body, as: Response.Type) async throws(CloudError) -> Response {
        do { return try await base.post(path, body, as: Response.self) } catch { throw CloudError(error) }
    }

    func get<Response: Decodable>(_ path: String, as: Response.Type) async throws(CloudError) -> Response {
        do { return try await base.get(path, as: Response.self) } catch { throw CloudError(error) }
    }

    /// GETs a URL the server handed out (a webcourier URL): no credentials, its own timeout.
    func get<Response: Decodable>(url: String, as: Response.Type, timeout: TimeAmount) async throws(CloudError) -> Response {
        do { return try await base.get(url: url, as: Response.self, timeout: timeout) } catch { throw CloudError(error) }
    }

    /// One request with a raw body; the answer's bytes (up to `limit`) when it is a 200.
    func exchange(
        _ method: HTTPMethod, url: String, body: ByteBuffer?, contentType: String, timeout: TimeAmount, limit: Int = 64 << 20
    ) async throws(CloudError) -> Data {
        do {
            return try await base.exchange(method, url: url, body: body, contentType: contentType, timeout: timeout, limit: limit)
        } catch {
            throw CloudError(error)
        }
    }
}
