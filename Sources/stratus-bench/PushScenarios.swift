import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel
import Synchronization

/// The push workload: how long from a write's 200 until every listening device's long-poll
/// answers with its notification, at a given number of listeners, and the server's memory
/// while they are all held open.
///
/// Listeners are devices of alice (one push token each) with a database subscription; the
/// writer is another of her devices, so every listener is notified of every write.
struct PushScenarios {
    let server: ServerUnderTest
    let client: HTTPClient

    /// How listeners receive: a long-poll per delivery, or one server-sent-events stream each.
    enum Mode: String {
        case longPoll = "long-poll"
        case events = "SSE"
    }

    /// What one listener count measured.
    struct Delivery {
        var mode: Mode
        var listeners: Int
        /// From the write's 200 (a notification that beats the answer back counts as 0).
        var histogram: Histogram<UInt64>
        /// From the moment the write was sent: the write's own time included.
        var fromRequest: Histogram<UInt64>
        /// Resident memory of the server with every listener's poll held open.
        var serverRSSMegabytes: Double?
        var missed: Int

        var p50Milliseconds: Double { Double(histogram.valueAtPercentile(50)) / 1000 }
        var p99Milliseconds: Double { Double(histogram.valueAtPercentile(99)) / 1000 }
        var fromRequestP50Milliseconds: Double { Double(fromRequest.valueAtPercentile(50)) / 1000 }
        var fromRequestP99Milliseconds: Double { Double(fromRequest.valueAtPercentile(99)) / 1000 }
    }

    /// An account's database subscription (what CKSyncEngine makes).
    func subscribe(account: String) async throws {
        let request = ModifySubscriptionsRequest(operations: [.init(.create, Subscription(subscriptionID: "bench", kind: .database))])
        let url = server.url("subscriptions/modify", account: account)
        let response = try await client.execute(.post(url, body: JSONEncoder().encode(request)), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw BenchError("subscription not saved: \(response.status)") }
    }

    /// `count` push tokens of an account's devices `<prefix>-<n>`; their webcourier URLs.
    func tokens(_ count: Int, prefix: String, account: String = "alice") async throws -> [String] {
        let url = server.url("tokens/create", account: account)
        let client = self.client
        return try await withThrowingTaskGroup(of: [String].self) { group in
            for lane in 0..<16 {
                group.addTask {
                    var urls: [String] = []
                    for index in stride(from: lane, to: count, by: 16) {
                        let body = try JSONEncoder().encode(PushTokenRequest())
                        let request = HTTPClientRequest.post(url, body: body, headers: [("X-Stratus-Device-ID", "\(prefix)-\(index)")])
                        let response = try await client.execute(request, timeout: .seconds(30))
                        let data = try await response.body.collect(upTo: 1 << 20)
                        urls.append(try JSONDecoder().decode(PushTokenResponse.self, from: Data(buffer: data)).webcourierURL)
                    }
                    return urls
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    /// Holds a long-poll open on every URL, makes `writes` writes one after another (each once
    /// every listener has the previous one, and the server's per-token coalescing interval of
    /// 200 ms has passed), and measures each delivery from the write's 200 and from its request.
    func delivery(_ urls: [String], mode: Mode, writes: Int, run: String) async throws -> Delivery {
        try await Self.withListeners(urls.count) { listeners in
            try await delivery(urls, mode: mode, writes: writes, run: run, listeners: listeners)
        }
    }

    private func delivery(_ urls: [String], mode: Mode, writes: Int, run: String, listeners: HTTPClient) async throws -> Delivery {
        let received = Counter()
        let arrivalsTask = Task {
            try await withThrowingTaskGroup(of: [ContinuousClock.Instant].self) { group in
                for (index, url) in urls.enumerated() {
                    group.addTask {
                        // Connections open in a stream (2,000 a second), not all in one burst.
                        try await Task.sleep(for: .microseconds(500 * index))
                        switch mode {
                        case .longPoll: return try await Self.listen(url, client: listeners, until: writes, received: received)
                        case .events: return try await Self.stream(url, client: listeners, until: writes, received: received)
                        }
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // Every poll held (opened in the background): then the server's memory with them all.
        try await Task.sleep(for: .seconds(2 + urls.count / 1_000))
        let rss = server.residentMegabytes()
        var writeTimes: [ContinuousClock.Instant] = []
        var sendTimes: [ContinuousClock.Instant] = []
        let writeURL = server.url("records/modify")
        for index in 0..<writes {
            let request = HTTPClientRequest.post(writeURL, body: Workload.createBody(["\(run)-push-\(index)"]), headers: [("X-Stratus-Device-ID", "writer")])
            sendTimes.append(ContinuousClock.now)
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            writeTimes.append(ContinuousClock.now)
            let deadline = ContinuousClock.now + .seconds(30)
            while received.value.load(ordering: .relaxed) < urls.count * (index + 1), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(2))
            }
            try await Task.sleep(for: .milliseconds(250))
        }
        let arrivals = try await arrivalsTask.value
        var histogram = Histogram<UInt64>(highestTrackableValue: 60_000_000, numberOfSignificantValueDigits: .three)
        var fromRequest = histogram
        var missed = 0
        for listener in arrivals {
            missed += max(0, writes - listener.count)
            for (arrival, (written, sent)) in zip(listener, zip(writeTimes, sendTimes)) {
                // A notification may beat the write's own answer back: that is a delivery of 0.
                _ = histogram.record(Self.microseconds(max(.zero, arrival - written)))
                _ = fromRequest.record(Self.microseconds(arrival - sent))
            }
        }
        return Delivery(mode: mode, listeners: urls.count, histogram: histogram, fromRequest: fromRequest, serverRSSMegabytes: rss, missed: missed)
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(1, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
    }

    /// Single-record creates from the writer device while `urls` listen and re-poll throughout.
    func writesWhileListening(_ urls: [String], scenarios: Scenarios, concurrency: Int, run: String) async throws -> LoadRunner.Result {
        try await Self.withListeners(urls.count) { listeners in
            let received = Counter()
            let listening = Task {
                try await withThrowingTaskGroup(of: [ContinuousClock.Instant].self) { group in
                    for url in urls { group.addTask { try await Self.listen(url, client: listeners, until: .max, received: received) } }
                    try await group.waitForAll()
                }
            }
            defer { listening.cancel() }
            try await Task.sleep(for: .seconds(1))
            return try await scenarios.singleCreates(concurrency: concurrency, run: run)
        }
    }

    /// A client of its own for the listeners (a pool as large as their count), shut down after.
    private static func withListeners<T>(_ connections: Int, _ body: (HTTPClient) async throws -> T) async throws -> T {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = connections + 16
        configuration.connectionPool.idleTimeout = .seconds(120)
        configuration.timeout.connect = .seconds(30)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let result = try await body(client)
            try await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// One device's loop: poll, note when notifications came, poll again from the cursor.
    private static func listen(_ url: String, client: HTTPClient, until count: Int, received: Counter) async throws -> [ContinuousClock.Instant] {
        var cursor: String?
        var arrivals: [ContinuousClock.Instant] = []
        while arrivals.count < count, !Task.isCancelled {
            var request = HTTPClientRequest(url: url + "?timeout=25" + (cursor.map { "&cursor=\($0)" } ?? ""))
            request.method = .GET
            let response = try await client.execute(request, timeout: .seconds(40))
            let data = try await response.body.collect(upTo: 16 << 20)
            let now = ContinuousClock.now
            let feed = try JSONDecoder().decode(FeedCount.self, from: Data(buffer: data))
            arrivals += Array(repeating: now, count: feed.notifications.count)
            received.value.add(feed.notifications.count, ordering: .relaxed)
            cursor = feed.cursor
        }
        return arrivals
    }

    /// One device's event stream: note when each notification event arrives.
    private static func stream(_ url: String, client: HTTPClient, until count: Int, received: Counter) async throws -> [ContinuousClock.Instant] {
        var request = HTTPClientRequest(url: url + "/events")
        request.method = .GET
        let response = try await client.execute(request, timeout: .seconds(600))
        var arrivals: [ContinuousClock.Instant] = []
        var pending = ""
        for try await chunk in response.body {
            let now = ContinuousClock.now
            pending += String(buffer: chunk)
            while let end = pending.range(of: "\n\n") {
                if pending[..<end.lowerBound].contains("event: notification") {
                    arrivals.append(now)
                    received.value.add(1, ordering: .relaxed)
                }
                pending.removeSubrange(..<end.upperBound)
            }
            if arrivals.count >= count { break }
        }
        return arrivals
    }

    /// Notifications received by all listeners so far.
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }
}

/// What a listener reads of a long-poll's answer: how many notifications, and the cursor. The
/// listeners' client shares the server's two cores, so it skips decoding each notification's
/// fields (the server's tests check those); the JSON is still parsed whole.
private struct FeedCount: Decodable {
    struct Skipped: Decodable {
        init(from decoder: any Decoder) throws {}
    }

    var notifications: [Skipped]
    var cursor: String
}
