import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import NIOPosix
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
        /// CPU time per delivery, in microseconds, from the first write until the last listener
        /// had the last one: the server's (the write and the re-polls included), and this
        /// process's (its listeners, and the writes' client).
        var serverCPUMicroseconds: Double?
        var listenersCPUMicroseconds: Double?
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

    /// Holds a long-poll (or a stream) open on every URL, makes `writes` writes one after
    /// another (each once every listener has the previous one, the server's per-token
    /// coalescing interval of 200 ms has passed, and every listener's poll is held again), and
    /// measures each delivery from the write's 200 and from its request.
    func delivery(_ urls: [String], mode: Mode, writes: Int, run: String) async throws -> Delivery {
        let tally = Tally()
        // Connections open in a stream (2,000 a second), not all in one burst.
        let listeners = try await Self.listen(urls, mode: mode, until: writes, tally: tally, every: .microseconds(500))
        // Every poll held: then the server's memory with them all.
        try await Task.sleep(for: .seconds(2))
        let rss = server.residentMegabytes()
        var writeTimes: [ContinuousClock.Instant] = []
        var sendTimes: [ContinuousClock.Instant] = []
        let writeURL = server.url("records/modify")
        let cpuBefore = (server: server.cpuSeconds(), listeners: CPUTime.ofThisProcess())
        for index in 0..<writes {
            let request = HTTPClientRequest.post(writeURL, body: Workload.createBody(["\(run)-push-\(index)"]), headers: [("X-Stratus-Device-ID", "writer")])
            sendTimes.append(ContinuousClock.now)
            let response = try await client.execute(request, timeout: .seconds(30))
            _ = try await response.body.collect(upTo: 1 << 20)
            writeTimes.append(ContinuousClock.now)
            try await Self.waitUntil { tally.received.load(ordering: .relaxed) >= urls.count * (index + 1) }
            // Past the server's coalescing interval, and every listener's poll held again (its
            // answer's head came back): the next write finds the devices idle, as the goal has them.
            try await Task.sleep(for: .milliseconds(250))
            try await Self.waitUntil { tally.held.load(ordering: .relaxed) >= urls.count }
        }
        // Below 10,000 deliveries the CPU clock's 10 ms ticks and each process's own idle work
        // (the writer's client, the sweeper) say more than the deliveries.
        let deliveries = urls.count * writes >= 10_000 ? Double(urls.count * writes) : 0
        let serverCPU = CPUTime.microseconds(from: cpuBefore.server, to: server.cpuSeconds(), per: deliveries)
        let listenersCPU = CPUTime.microseconds(from: cpuBefore.listeners, to: CPUTime.ofThisProcess(), per: deliveries)
        var arrivals: [[ContinuousClock.Instant]] = []
        for listener in listeners {
            arrivals.append((try? await listener.arrivals.get()) ?? [])
            try? await listener.channel.close()
        }
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
        return Delivery(
            mode: mode, listeners: urls.count, histogram: histogram, fromRequest: fromRequest, serverRSSMegabytes: rss,
            serverCPUMicroseconds: serverCPU, listenersCPUMicroseconds: listenersCPU, missed: missed
        )
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(1, duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000))
    }

    /// Returns once `condition` holds, or after 30 s.
    private static func waitUntil(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Single-record creates from the writer device while `urls` listen and re-poll throughout.
    func writesWhileListening(_ urls: [String], scenarios: Scenarios, concurrency: Int, run: String) async throws -> LoadRunner.Result {
        let listeners = try await Self.listen(urls, mode: .longPoll, until: .max, tally: Tally(), every: .zero)
        defer { for listener in listeners { listener.channel.close(promise: nil) } }
        try await Task.sleep(for: .seconds(1))
        return try await scenarios.singleCreates(concurrency: concurrency, run: run)
    }

    /// Connects a listening device to each URL, one every `every`.
    private static func listen(
        _ urls: [String], mode: Mode, until count: Int, tally: Tally, every interval: Duration
    ) async throws -> [ListeningDevice.Connected] {
        let start = ContinuousClock.now
        var listeners: [ListeningDevice.Connected] = []
        for (index, url) in urls.enumerated() {
            try await Task.sleep(until: start + interval * index)
            listeners.append(try await ListeningDevice.connect(url, mode: mode, until: count, tally: tally, group: MultiThreadedEventLoopGroup.singleton))
        }
        return listeners
    }

    /// What the listeners have seen so far, all together.
    final class Tally: Sendable {
        /// Notifications received.
        let received = Atomic<Int>(0)
        /// Listeners the server holds now: their answer's head came, its end has not (a
        /// held poll's head leaves when its wait starts; a stream's, once).
        let held = Atomic<Int>(0)
    }
}
