import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A listening device of the push workload: one keep-alive HTTP/1.1 connection to its
/// webcourier URL, driven from the connection's event loop.
///
/// A long-poll listener polls, notes when an answer's notifications arrived, and polls again
/// from the answer's cursor in the same event-loop turn; an event-stream listener opens one
/// stream and notes each `notification` event. It is what a device's push connection does,
/// at the least machine time a client can spend: the listeners share the server's two cores,
/// and a general-purpose client (AsyncHTTPClient) spent more of them than the server did at
/// 10,000 listeners, much of it scanning its pool of 10,000 connections for each request.
final class ListeningDevice: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let path: String
    private let host: String
    private let mode: PushScenarios.Mode
    private let until: Int
    private let tally: PushScenarios.Tally
    private let done: EventLoopPromise<[ContinuousClock.Instant]>
    private var cursor: String?
    private var body = ByteBuffer()
    /// The current answer's head came and its end has not: the server holds this listener.
    private var held = false
    private var arrivals: [ContinuousClock.Instant] = []
    private var finished = false

    /// A listener of `path` on `host` (`host:port`); its arrivals complete `done` after `until`
    /// notifications, or fail it when the connection fails.
    private init(path: String, host: String, mode: PushScenarios.Mode, until: Int, tally: PushScenarios.Tally, done: EventLoopPromise<[ContinuousClock.Instant]>) {
        self.path = path
        self.host = host
        self.mode = mode
        self.until = until
        self.tally = tally
        self.done = done
    }

    /// A connected listener: its channel (close it to stop listening) and the arrival times of
    /// the notifications it received, once it has all it waits for.
    typealias Connected = (channel: any Channel, arrivals: EventLoopFuture<[ContinuousClock.Instant]>)

    /// Connects a listener to `url` on `group`, to wait for `until` notifications.
    static func connect(
        _ url: String, mode: PushScenarios.Mode, until: Int, tally: PushScenarios.Tally, group: any EventLoopGroup
    ) async throws -> Connected {
        guard let parsed = URL(string: url), let host = parsed.host, let port = parsed.port else { throw BenchError("not a webcourier URL: \(url)") }
        let loop = group.next()
        let done = loop.makePromise(of: [ContinuousClock.Instant].self)
        let path = parsed.path + (mode == .events ? "/events" : "")
        let authority = "\(host):\(port)"
        let channel = try await ClientBootstrap(group: loop)
            .channelOption(.socketOption(.so_reuseaddr), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let device = ListeningDevice(path: path, host: authority, mode: mode, until: until, tally: tally, done: done)
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(device)
                }
            }
            .connect(host: host, port: port).get()
        return (channel, done.futureResult)
    }

    func channelActive(context: ChannelHandlerContext) {
        send(context: context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            guard head.status == .ok else { return fail(context: context, BenchError("webcourier answered \(head.status)")) }
            held = true
            tally.held.add(1, ordering: .relaxed)
        case .body(var chunk):
            switch mode {
            case .longPoll: body.writeBuffer(&chunk)
            case .events: countEvents(in: &chunk, context: context)
            }
        case .end:
            if held { tally.held.subtract(1, ordering: .relaxed) }
            held = false
            if mode == .longPoll { answered(context: context) }
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(context: context, BenchError("the webcourier connection closed after \(arrivals.count) notifications"))
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(context: context, error)
    }

    /// A long-poll's answer ended: note its notifications, poll again from its cursor.
    private func answered(context: ChannelHandlerContext) {
        let now = ContinuousClock.now
        guard let page = FeedCount(body) else {
            return fail(context: context, BenchError("the webcourier answered no feed page"))
        }
        body.clear()
        note(page.notifications, at: now)
        cursor = page.cursor
        if arrivals.count >= until { return finish(context: context) }
        send(context: context)
    }

    /// Counts the `notification` events among the stream's whole events so far.
    private func countEvents(in chunk: inout ByteBuffer, context: ChannelHandlerContext) {
        let now = ContinuousClock.now
        body.writeBuffer(&chunk)
        let text = String(buffer: body)
        var count = 0
        var rest = Substring(text)
        while let end = rest.range(of: "\n\n") {
            if rest[..<end.lowerBound].contains("event: notification") { count += 1 }
            rest = rest[end.upperBound...]
        }
        body.clear()
        body.writeString(String(rest))
        note(count, at: now)
        if arrivals.count >= until { finish(context: context) }
    }

    private func note(_ count: Int, at now: ContinuousClock.Instant) {
        guard count > 0 else { return }
        arrivals += repeatElement(now, count: count)
        tally.received.add(count, ordering: .relaxed)
    }

    private func send(context: ChannelHandlerContext) {
        let uri: String
        switch mode {
        case .longPoll: uri = path + "?format=stratus&timeout=25" + (cursor.map { "&cursor=\($0)" } ?? "")
        case .events: uri = path
        }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: uri)
        head.headers.add(name: "Host", value: host)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    private func finish(context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        done.succeed(arrivals)
        context.close(promise: nil)
    }

    private func fail(context: ChannelHandlerContext, _ error: any Error) {
        guard !finished else { return }
        finished = true
        done.fail(error)
        context.close(promise: nil)
    }
}

/// What a listener reads of a long-poll's answer: how many notifications (the `"notificationID"`
/// keys, one per notification) and the cursor (`"cursor":"…"`, after the notifications).
///
/// Found by scanning the bytes, not by decoding the JSON: the listeners share the server's two
/// cores, and decoding every answer whole cost them a tenth of the machine when 100 devices
/// each received every change (BENCHMARKS.md). A device decodes on its own CPU; the server's
/// tests check what the answers hold.
private struct FeedCount {
    var notifications = 0
    var cursor = ""

    private static let notificationKey = Array(#""notificationID""#.utf8)
    private static let cursorKey = Array(#""cursor":""#.utf8)

    /// `nil` when the answer has no cursor: not a feed page.
    init?(_ answer: ByteBuffer) {
        let found: String? = answer.withUnsafeReadableBytes { bytes in
            var index = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\"") {
                    if Self.matches(Self.notificationKey, in: bytes, at: index) {
                        notifications += 1
                        index += Self.notificationKey.count
                        continue
                    }
                    if Self.matches(Self.cursorKey, in: bytes, at: index) {
                        let start = index + Self.cursorKey.count
                        guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
                        return String(decoding: bytes[start..<end], as: UTF8.self)
                    }
                }
                index += 1
            }
            return nil
        }
        guard let found else { return nil }
        cursor = found
    }

    private static func matches(_ key: [UInt8], in bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
        guard index + key.count <= bytes.count else { return false }
        return key.indices.allSatisfy { bytes[index + $0] == key[$0] }
    }
}
