import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

/// The one HTTP client of the house: POSTs CloudKit Web Services requests as JSON to a container
/// environment's `/database/1/{container}/{environment}` and hands back the decoded answer, or a
/// ``TransportFailure`` carrying the server's error body, which StratusCloudKit maps to
/// ``CKError`` through ``CKError/Code/init(serverErrorCode:nativeErrorCode:)``.
package struct CKWSTransport: Sendable {
    package let baseURL: String
    package let apiToken: String
    package let webAuthToken: String?
    package let deviceID: String?
    package let client: HTTPClient
    package var timeout: TimeAmount = .seconds(60)

    /// What the native framework knows beyond CKWS's JSON, asked of the server on every request:
    /// dates to the last bit, deleted records' types, 400 operations a modify, zones' shares,
    /// errors' native codes and server records. A zone's client change token is asked only where
    /// an operation hands it back (``post(_:_:as:asking:)``): a fetch that does not use it costs
    /// the server no read.
    static let extensions = WireExtensions.all.subtracting(.clientChangeTokens)

    /// Request bodies as JSON, with the extensions' keys (a date's `exactDates`).
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.userInfo[.wireExtensions] = extensions
        return encoder
    }()

    package init(baseURL: String, apiToken: String, webAuthToken: String?, deviceID: String?, client: HTTPClient) {
        self.baseURL = baseURL
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
        self.deviceID = deviceID
        self.client = client
    }

    /// The query string naming the credentials (`+`, `/` and `=` of a web auth token escaped).
    package var credentialQuery: String {
        var query = "ckAPIToken=\(apiToken)"
        if let webAuthToken { query += "&ckWebAuthToken=\(Self.escape(webAuthToken))" }
        return query
    }

    /// POSTs `body` to a CKWS path, asking for ``extensions`` and `extra`.
    package func post<Body: Encodable, Response: Decodable>(
        _ path: String, _ body: Body, as: Response.Type, asking extra: WireExtensions = []
    ) async throws(TransportFailure) -> Response {
        try await send(.POST, url: "\(baseURL)/\(path)?\(credentialQuery)", body, as: Response.self, timeout: timeout, asking: extra)
    }

    package func get<Response: Decodable>(_ path: String, as: Response.Type) async throws(TransportFailure) -> Response {
        try await send(.GET, url: "\(baseURL)/\(path)?\(credentialQuery)", Optional<EmptyBody>.none, as: Response.self, timeout: timeout)
    }

    /// GETs a URL the server handed out (a webcourier URL): no credentials, its own timeout.
    package func get<Response: Decodable>(url: String, as: Response.Type, timeout: TimeAmount) async throws(TransportFailure) -> Response {
        try await send(.GET, url: url, Optional<EmptyBody>.none, as: Response.self, timeout: timeout)
    }

    private func send<Body: Encodable, Response: Decodable>(
        _ method: HTTPMethod, url: String, _ body: Body?, as: Response.Type, timeout: TimeAmount, asking extra: WireExtensions = []
    ) async throws(TransportFailure) -> Response {
        var bytes: ByteBuffer?
        if let body {
            do { bytes = ByteBuffer(data: try Self.encoder.encode(body)) } catch {
                throw TransportFailure(.unencodable, path: Self.path(of: url), "\(error)")
            }
        }
        let data = try await exchange(method, url: url, body: bytes, contentType: "application/json", timeout: timeout, asking: extra)
        do {
            return try JSONDecoder().decode(Response.self, from: data)
        } catch {
            throw TransportFailure(.undecodable, path: Self.path(of: url), "cannot decode the answer: \(error)")
        }
    }

    /// One request with a raw body; the answer's bytes (up to `limit`) when it is a 200, else the
    /// CloudKit error it carries.
    package func exchange(
        _ method: HTTPMethod, url: String, body: ByteBuffer?, contentType: String, timeout: TimeAmount, limit: Int = 64 << 20,
        asking extra: WireExtensions = []
    ) async throws(TransportFailure) -> Data {
        let path = Self.path(of: url)
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "Content-Type", value: contentType)
        if let deviceID { request.headers.add(name: "X-Stratus-Device-ID", value: deviceID) }
        request.headers.add(name: WireExtensions.headerName, value: Self.extensions.union(extra).headerValue)
        if let body { request.body = .bytes(body) }
        let bytes: ByteBuffer
        let status: UInt
        do {
            let response = try await client.execute(request, timeout: timeout)
            status = response.status.code
            bytes = try await response.body.collect(upTo: limit)
        } catch {
            // A request cut short because its task was cancelled is a cancellation, not the network.
            throw TransportFailure(error is CancellationError || Task.isCancelled ? .cancelled : .network, path: path, "\(error)")
        }
        let data = Data(buffer: bytes)
        guard status == 200 else {
            guard let body = try? JSONDecoder().decode(ErrorBody.self, from: data) else {
                throw TransportFailure(.status(Int(status)), path: path, "HTTP \(status)")
            }
            throw TransportFailure(.server(body), path: path, body.reason)
        }
        return data
    }

    static func path(of url: String) -> String { url.split(separator: "?").first.map(String.init) ?? url }

    /// A web auth token as a query value: Base64's `+`, `/` and `=` escaped.
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F").replacingOccurrences(of: "=", with: "%3D")
    }
}

/// Why a request through ``CKWSTransport`` failed.
package struct TransportFailure: Error, Sendable {
    package enum Kind: Sendable {
        /// The server answered with a CloudKit error body.
        case server(ErrorBody)
        /// A non-200 answer without a CloudKit error body.
        case status(Int)
        /// No answer: connection refused, reset, timed out.
        case network
        /// A 200 whose body is not what the endpoint answers.
        case undecodable
        /// The request could not be encoded.
        case unencodable
        /// The task making the request was cancelled.
        case cancelled
    }

    package var kind: Kind
    package var path: String
    package var message: String

    package init(_ kind: Kind, path: String, _ message: String) {
        self.kind = kind
        self.path = path
        self.message = message
    }
}

/// An empty JSON object body.
package struct EmptyBody: Codable, Sendable {
    package init() {}
}
