import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import StratusCore
import StratusModel

/// A push token's notification feed, in place of APNs:
/// - `GET /stratus/v1/push/{token}[?cursor=C]`: the webcourier long-poll. Answers at once when
///   notifications are due after the cursor, else holds the request until one is (or ~25 s,
///   then answers an empty page with the same cursor).
/// - `GET /stratus/v1/push/{token}/events`: the same feed as server-sent events, one open
///   connection; resumes from `Last-Event-ID` or `?cursor=`; `?timeout=S` ends the stream after
///   S seconds (for clients and checks that want a bounded answer).
/// The token in the path is the credential, as an APNs device token is.
struct WebcourierRoutes {
    let tokens: PushTokenService

    /// The longest a poll is held: under the server's default idle timeout (30 s).
    static let longestWait = 25

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("push/:token", use: poll)
        group.get("push/:token/events", use: events)
    }

    /// The webcourier URL of a token, on the host the client reached.
    static func url(for token: String, request: Request) -> String {
        let host = request.head.authority ?? "127.0.0.1"
        return "http://\(host)/stratus/v1/push/\(token)"
    }

    @Sendable private func poll(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        let query = request.uri.queryParameters
        let wait = try Self.timeout(request) ?? Self.longestWait
        let cursor = query.get("cursor").map { String($0) }
        let tokens = self.tokens
        let seconds = wait
        ServerMetrics.pollOpened()
        defer { ServerMetrics.pollClosed() }
        // A server shutting down answers held polls at once (empty) instead of waiting them out:
        // a handler, not a task group, so a held poll costs no extra tasks.
        let feed = try await withGracefulShutdownHandler {
            try await tokens.feed(token: token, cursor: cursor, wait: .seconds(seconds))
        } onGracefulShutdown: {
            tokens.closeFeeds()
        }
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: feed.json)))
    }

    /// The `timeout` query parameter, in seconds (0-25), when given.
    private static func timeout(_ request: Request) throws -> Int? {
        guard let given = request.uri.queryParameters.get("timeout") else { return nil }
        guard let seconds = Int(given), (0...longestWait).contains(seconds) else {
            throw CoreError.badRequest("timeout must be 0-\(longestWait) seconds")
        }
        return seconds
    }

    @Sendable private func events(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        let end = try Self.timeout(request).map { ContinuousClock.now + .seconds($0) }
        // An empty Last-Event-ID means none (a client that has seen no event yet).
        let lastEventID = request.headers[.lastEventID].flatMap { $0.isEmpty ? nil : $0 }
        let start = lastEventID ?? request.uri.queryParameters.get("cursor").map { String($0) }
        // The first read answers errors (unknown token, bad cursor) as JSON before the stream opens.
        let first = try await tokens.feed(token: token, cursor: start, wait: .zero)
        let tokens = self.tokens
        let body = ResponseBody { writer in
            ServerMetrics.pollOpened()
            defer { ServerMetrics.pollClosed() }
            var feed = first
            while !Task.isCancelled {
                var text = ""
                for encoded in feed.notifications {
                    let id = Int64(encoded.notification.notificationID) ?? Int64(feed.cursor) ?? 0
                    text += "id: \(id)\nevent: notification\ndata: \(encoded.json)\n\n"
                }
                // A comment keeps the connection (and proxies) from timing it out.
                if text.isEmpty { text = ": waiting\n\n" }
                try await writer.write(ByteBuffer(string: text))
                if let end, ContinuousClock.now >= end { break }
                let cursor = feed.cursor
                let wait = end.map { min(.seconds(15), $0 - ContinuousClock.now) } ?? .seconds(15)
                do {
                    feed = try await withGracefulShutdownHandler {
                        try await tokens.feed(token: token, cursor: cursor, wait: wait)
                    } onGracefulShutdown: {
                        tokens.closeFeeds()
                    }
                    if feed.notifications.isEmpty && tokens.isClosed { break }
                } catch {
                    break  // shutting down (or the token is gone): end the stream; the client resumes from its last id
                }
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: body)
    }
}
