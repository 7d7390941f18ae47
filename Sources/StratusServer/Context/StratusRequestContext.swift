import Hummingbird
import Logging
import NIOCore
import StratusCore
import StratusModel

/// The per-request context of every Stratus route: Hummingbird's core storage, the caller the
/// auth middleware established (`nil` until it ran), and — as Hummingbird's contexts do — how
/// bodies are read and answers written (``WireRequestDecoder``, ``WireResponseEncoder``) and the
/// largest body a route reads (the server's limit, set by ``BodyDeadlineMiddleware``).
public struct StratusRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The largest request body, in bytes (Hummingbird's default until the body middleware sets
    /// the server's limit).
    public var maxUploadSize = 2 * 1024 * 1024
    public var requestDecoder: WireRequestDecoder { WireRequestDecoder() }
    public var responseEncoder: WireResponseEncoder { WireResponseEncoder() }
    /// The resolved database and caller of a CKWS request.
    public var scope: RequestScope?
    /// The connection the request came on (closed by a dropped-answer fault).
    public let channel: any Channel
    /// What the request did, for its access-log line.
    public let facts = RequestFactsBox()

    /// The peer's address (the console offers a development server's own machine one-click sign-in).
    public var remoteAddress: SocketAddress? { channel.remoteAddress }

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }
}

/// The context of routes under `/database/1/{container}/{environment}/{database}/`: the
/// authenticated scope is not optional here, so handlers never unwrap identity.
public struct DatabaseContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let scope: RequestScope
    /// The parent context's body limit.
    public let maxUploadSize: Int
    public var requestDecoder: WireRequestDecoder { WireRequestDecoder() }
    public var responseEncoder: WireResponseEncoder { WireResponseEncoder() }
    /// What the request did, for its access-log line (the parent context's box).
    public let facts: RequestFactsBox

    public init(context: StratusRequestContext) throws {
        guard let scope = context.scope else {
            throw CoreError(.authenticationFailed, "request was not authenticated")
        }
        self.coreContext = context.coreContext
        self.scope = scope
        self.maxUploadSize = context.maxUploadSize
        self.facts = context.facts
    }
}
