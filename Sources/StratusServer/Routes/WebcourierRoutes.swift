import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle
import StratusCore
import StratusModel

/// A push token's notification feed, in place of APNs:
/// - `GET /stratus/v1/push/{token}`: the URL tokens/create hands out to an Apple client (CloudKit
///   JS, a server script: any that names no Stratus device), answering as Apple's courier does
///   when polled exactly as given: held until a notification is due, it answers the next one in
///   Apple's payload (`{aps, ck}`, ``ApplePushPayload``) and consumes it — each notification
///   once, in order, across restarts — or `{}` when none arrived in time. (`?format=apns` says
///   the same.)
/// - `GET /stratus/v1/push/{token}?format=stratus[&cursor=C]`: Stratus's feed, the URL handed out
///   to a Stratus device (one that registered with `X-Stratus-Device-ID`), a long-poll of pages.
///   Answers at once when notifications are due after the cursor, else holds the request until
///   one is (or ~25 s, then answers an empty page with the same cursor). The client keeps the
///   cursor, so it may replay; nothing is consumed.
/// - `GET /stratus/v1/push/{token}/events`: Stratus's feed as server-sent events, one open
///   connection; resumes from `Last-Event-ID` or `?cursor=`; `?timeout=S` ends the stream after
///   S seconds (for clients and checks that want a bounded answer).
/// The token in the path is the credential, as an APNs device token is.
struct WebcourierRoutes {
    let tokens: PushTokenService

    /// The longest a poll is held: under the server's default idle timeout (30 s).
    static let longestWait = 25
    /// Where the webcourier's paths start (under the `stratus/v1` group it registers on).
    static let pathPrefix = "/stratus/v1/push/"

    func register(on group: RouterGroup<StratusRequestContext>) {
        group.get("push/:token", use: poll)
        group.get("push/:token/events", use: events)
    }

    /// The webcourier URL of a token, on the host the client reached: Apple's courier, unless
    /// the registering client is a Stratus device — it named itself with `X-Stratus-Device-ID`,
    /// Stratus's own header, which no Apple client sends — whose URL asks for Stratus's feed.
    static func url(for token: String, request: Request) -> String {
        let host = request.head.authority ?? "127.0.0.1"
        let feed = request.headers[.deviceID] != nil ? "?format=stratus" : ""
        return "http://\(host)\(pathPrefix)\(token)\(feed)"
    }

    /// Answers at once when a page is due; else answers 200 and waits in the response body,
    /// which runs on the connection's task after the router and handler returned (see
    /// `HeldAnswerResponder`): what a held poll keeps is its waiter, not their frames.
    @Sendable private func poll(_ request: Request, context: StratusRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        let wait = try Self.timeout(request) ?? Self.longestWait
        let apple = try Self.isAppleFormat(request)
        // Apple's courier keeps the position itself (consumed on delivery): no cursor.
        let cursor = apple ? nil : request.uri.queryParameters.get("cursor").map { String($0) }
        let tokens = self.tokens
        let render: @Sendable (FeedPage) async throws -> ByteBuffer = { page in
            guard apple else { return ByteBuffer(page) }
            let payload = try await tokens.consumeFirst(of: page, token: token)
            return try payload.map { try JSONBody.encode($0) } ?? ByteBuffer(string: "{}")
        }
        switch try await tokens.look(token: token, cursor: cursor, wait: .seconds(wait)) {
        case .page(let page):
            return Self.answer(body: .init(byteBuffer: try await render(page)))
        case .wait(let waiter):
            return Self.answer(
                body: ResponseBody { writer in
                    ServerMetrics.pollOpened()
                    defer { ServerMetrics.pollClosed() }
                    // A server shutting down answers held polls at once (empty) instead of waiting them out.
                    let page = await withGracefulShutdownHandler {
                        await Self.page(after: waiter, tokens: tokens)
                    } onGracefulShutdown: {
                        tokens.closeFeeds()
                    }
                    try await writer.write(try await render(page))
                    try await writer.finish(nil)
                })
        }
    }

    /// Waits, and looks again when woken, until a page is due or the waiter's deadline passed.
    /// A look the recent window in memory answers runs here; one that reads the store (or
    /// waits out the token's pacing) runs on a task of its own. A look that fails answers the
    /// empty page: the device polls again from the same cursor.
    private static func page(after first: FeedWaiter, tokens: PushTokenService) async -> FeedPage {
        var waiter = first
        while await tokens.wait(waiter) {
            let look: FeedLook
            if let inMemory = tokens.lookInMemory(waiter) {
                look = inMemory
            } else {
                let current = waiter
                look = (try? await OwnTask.run { try await tokens.look(again: current) }) ?? .page(waiter.emptyPage)
            }
            switch look {
            case .page(let page): return page
            case .wait(let next): waiter = next
            }
        }
        return waiter.emptyPage
    }

    private static func answer(body: ResponseBody) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=UTF-8"
        return Response(status: .ok, headers: headers, body: body)
    }

    /// Whether the poll is answered in Apple's courier shape: unless `format=stratus` asks for the feed.
    private static func isAppleFormat(_ request: Request) throws -> Bool {
        switch request.uri.queryParameters.get("format") {
        case "stratus": false
        case nil, "apns": true
        case let other?: throw CoreError.badRequest("format must be apns or stratus, not '\(other)'")
        }
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
        let startCursor = lastEventID ?? request.uri.queryParameters.get("cursor").map { String($0) }
        // The first look answers errors (unknown token, bad cursor) as JSON before the stream opens.
        let start = try await tokens.waiter(token: token, cursor: startCursor, wait: .zero)
        let first: FeedPage
        switch try await tokens.look(again: start) {
        case .page(let page): first = page
        case .wait(let waiter): first = waiter.emptyPage
        }
        let tokens = self.tokens
        let body = ResponseBody { writer in
            ServerMetrics.pollOpened()
            defer { ServerMetrics.pollClosed() }
            var page = first
            var waiter = start
            while !Task.isCancelled {
                var text = ""
                for encoded in page.notifications {
                    let id = Int64(encoded.notification.notificationID) ?? Int64(page.cursor) ?? 0
                    text += "id: \(id)\nevent: notification\ndata: \(encoded.json)\n\n"
                }
                // A comment keeps the connection (and proxies) from timing it out.
                if text.isEmpty { text = ": waiting\n\n" }
                try await writer.write(ByteBuffer(string: text))
                if let end, ContinuousClock.now >= end { break }
                let heartbeat = ContinuousClock.now + .seconds(15)
                waiter = waiter.next(after: page, until: end.map { min(heartbeat, $0) } ?? heartbeat)
                let next = waiter
                page = await withGracefulShutdownHandler {
                    await Self.page(after: next, tokens: tokens)
                } onGracefulShutdown: {
                    tokens.closeFeeds()
                }
                // Shutting down: end the stream; the client resumes from its last id.
                if page.notifications.isEmpty && tokens.isClosed { break }
            }
            try await writer.finish(nil)
        }
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension ByteBuffer {
    /// A feed page's JSON, written straight into the buffer: one copy of each notification.
    init(_ page: FeedPage) {
        self.init()
        reserveCapacity(page.jsonByteCount)
        page.writeJSON { writeString($0) }
    }
}
