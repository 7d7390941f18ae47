import HTTPTypes
import Hummingbird

/// How the HTTP server treats connections, so slow or stalled clients cannot hold it: how long a
/// connection may sit idle (mid-body included), how long a request may take to send its whole
/// body, and how many connections may be open at once.
public struct HTTPOptions: Sendable, Hashable {
    /// A connection with nothing read or written for this long is closed.
    public var idleTimeout: Duration
    /// A request whose body has not fully arrived after this long is refused (a trickling body).
    public var bodyTimeout: Duration
    /// Connections beyond this many wait to be accepted.
    public var maximumConnections: Int
    /// The browser origin allowed to call the server (CORS): `*` for any, one origin
    /// (`https://app.example.com`), or `nil` for no CORS headers at all.
    public var corsOrigin: String?

    public init(
        idleTimeout: Duration = .seconds(30), bodyTimeout: Duration = .seconds(30), maximumConnections: Int = 1_000,
        corsOrigin: String? = nil
    ) {
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.maximumConnections = maximumConnections
        self.corsOrigin = corsOrigin
    }

    /// The answer headers a browser's script may read.
    static let exposedHeaders = ["Retry-After", "X-Request-ID"]

    /// Hummingbird's CORS middleware for ``corsOrigin``: preflights answered, every answer
    /// (errors included) marked for the browser, `Retry-After` and `X-Request-ID` readable.
    var cors: CORSMiddleware<StratusRequestContext>? {
        guard let corsOrigin else { return nil }
        return CORSMiddleware(
            allowOrigin: corsOrigin == "*" ? .all : .custom(corsOrigin),
            allowHeaders: [.accept, .authorization, .contentType, .origin, HTTPField.Name("X-Stratus-Device-ID")].compactMap { $0 },
            allowMethods: [.get, .post, .delete, .options],
            exposedHeaders: HTTPOptions.exposedHeaders,
            maxAge: .seconds(600)
        )
    }
}
