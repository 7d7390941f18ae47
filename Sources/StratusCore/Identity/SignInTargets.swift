import Foundation
import StratusModel

/// Where a web auth token minted by the sign-in page may go — the one rule for it. CloudKit binds
/// an API token to its allowed origins and its sign-in callback URL; so does Stratus: the page
/// redirects with `?ckWebAuthToken=` only to the API token's registered callback URL (extra query
/// items allowed) and posts the token only to the opener's origin when that origin is registered.
/// A development server (`--dev`) also allows loopback pages (`localhost`, `127.0.0.1`, `::1`),
/// so a local web app signs in with no setup.
public struct SignInTargets: Sendable, Hashable {
    /// The API token's settings; `nil` when the sign-in page was opened without an API token.
    public var settings: APITokenSettings?
    /// Whether loopback origins and callbacks are allowed without registration (`--dev`).
    public var allowsLoopback: Bool

    public init(settings: APITokenSettings?, allowsLoopback: Bool) {
        self.settings = settings
        self.allowsLoopback = allowsLoopback
    }

    /// Whether sign-in may redirect to `callback` with the token.
    public func allowsCallback(_ callback: String) -> Bool {
        guard let target = Self.endpoint(callback) else { return false }
        if allowsLoopback, Self.isLoopback(target.host) { return true }
        guard let registered = settings?.signInCallbackURL.flatMap(Self.endpoint) else { return false }
        return target == registered
    }

    /// Whether the sign-in page may `postMessage` the token to an opener at `origin`.
    public func allowsOrigin(_ origin: String) -> Bool {
        guard let normalized = Self.normalizedOrigin(origin), let target = Self.endpoint(normalized) else { return false }
        if allowsLoopback, Self.isLoopback(target.host) { return true }
        return settings?.allowedOrigins.contains(normalized) ?? false
    }

    /// `scheme://host[:port]` of an http(s) URL or origin, lowercase, without a default port;
    /// `nil` for anything else (other schemes, no host, user info).
    public static func normalizedOrigin(_ text: String) -> String? {
        guard let endpoint = endpoint(text) else { return nil }
        return endpoint.origin
    }

    /// Checks and normalises settings an operator registers: origins are bare http(s) origins
    /// (no path, query or fragment), the callback URL an absolute http(s) URL.
    /// - Throws: `BAD_REQUEST` naming the first value that is neither.
    public static func validated(_ settings: APITokenSettings) throws(CoreError) -> APITokenSettings {
        var origins: [String] = []
        for origin in settings.allowedOrigins {
            guard let endpoint = endpoint(origin), endpoint.path.isEmpty || endpoint.path == "/", !origin.contains("?"), !origin.contains("#"),
                let normalized = normalizedOrigin(origin)
            else {
                throw CoreError.badRequest("allowed origin '\(origin)' is not an http(s) origin such as https://app.example.com")
            }
            if !origins.contains(normalized) { origins.append(normalized) }
        }
        let callback = settings.signInCallbackURL.flatMap { $0.isEmpty ? nil : $0 }
        if let callback, endpoint(callback) == nil {
            throw CoreError.badRequest("sign-in callback URL '\(callback)' is not an absolute http(s) URL")
        }
        return APITokenSettings(allowedOrigins: origins, signInCallbackURL: callback)
    }

    /// What two URLs must share to count as one target: scheme, host, port and path.
    struct Endpoint: Hashable {
        var scheme: String
        var host: String
        var port: Int?
        var path: String

        var origin: String { "\(scheme)://\(host.contains(":") ? "[\(host)]" : host)" + (port.map { ":\($0)" } ?? "") }
    }

    static func endpoint(_ text: String) -> Endpoint? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            components.user == nil, components.password == nil,
            var host = components.host?.lowercased(), !host.isEmpty
        else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        let path = components.path == "/" ? "" : components.path
        return Endpoint(scheme: scheme, host: host, port: port, path: path)
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "127.0.0.1" || host.hasSuffix(".localhost")
    }
}
