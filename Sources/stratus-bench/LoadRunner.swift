import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOHTTP1

/// A closed-loop load generator: `concurrency` workers each send a request, wait for the answer
/// and send the next, until the duration is over. Latencies go into an HdrHistogram (µs).
struct LoadRunner {
    let client: HTTPClient
    /// The CPU seconds the server under test has used so far, when it can be read (a server
    /// started here): each run then also says what its requests cost the server.
    var serverCPU: @Sendable () -> Double? = { nil }

    /// What one run measured.
    struct Result {
        var requests: Int
        var failures: Int
        var seconds: Double
        var histogram: Histogram<UInt64>
        /// The server's CPU time over the measured run, when known.
        var serverCPUSeconds: Double?
        /// This process's CPU time over the measured run (the client side), when measured.
        var clientCPUSeconds: Double?

        var requestsPerSecond: Double { Double(requests) / seconds }
        var p50Milliseconds: Double { Double(histogram.valueAtPercentile(50)) / 1000 }
        var p99Milliseconds: Double { Double(histogram.valueAtPercentile(99)) / 1000 }
    }

    /// Runs `makeRequest(worker, sequence)` in a closed loop; a non-200 answer counts as a failure.
    func run(
        concurrency: Int, duration: Duration, warmup: Duration = .seconds(1),
        makeRequest: @escaping @Sendable (_ worker: Int, _ sequence: Int) -> HTTPClientRequest
    ) async throws -> Result {
        _ = try await loop(concurrency: concurrency, duration: warmup, makeRequest: makeRequest, sequenceBase: 1_000_000_000)
        let cpuBefore = serverCPU()
        var result = try await loop(concurrency: concurrency, duration: duration, makeRequest: makeRequest, sequenceBase: 0)
        if let cpuBefore, let cpuAfter = serverCPU() { result.serverCPUSeconds = cpuAfter - cpuBefore }
        return result
    }

    private func loop(
        concurrency: Int, duration: Duration, makeRequest: @escaping @Sendable (Int, Int) -> HTTPClientRequest, sequenceBase: Int
    ) async throws -> Result {
        let client = self.client
        return try await timedLoop(concurrency: concurrency, duration: duration, sequenceBase: sequenceBase) { worker, sequence in
            // The request is made before the clock starts: only the exchange is timed.
            let request = makeRequest(worker, sequence)
            return {
                let response = try await client.execute(request, timeout: .seconds(60))
                _ = try await response.body.collect(upTo: 64 << 20)
                return response.status == .ok
            }
        }
    }
}

extension LoadRunner {
    /// A closed loop over an arbitrary exchange (several requests, a streamed body): `exchange`
    /// answers whether it succeeded; its whole duration is the latency recorded.
    func loop(
        concurrency: Int, duration: Duration, exchange: @escaping @Sendable (_ worker: Int, _ sequence: Int) async throws -> Bool
    ) async throws -> Result {
        try await timedLoop(concurrency: concurrency, duration: duration, sequenceBase: 0) { worker, sequence in
            { try await exchange(worker, sequence) }
        }
    }

    /// ``loop(concurrency:duration:exchange:)`` after a warmup (record names of its own: its
    /// sequence numbers start at 1,000,000,000), with the server's CPU time and this process's
    /// over the measured seconds: ``run(concurrency:duration:warmup:makeRequest:)`` for exchanges
    /// of any shape.
    func measuredLoop(
        concurrency: Int, duration: Duration, warmup: Duration = .seconds(1),
        exchange: @escaping @Sendable (_ worker: Int, _ sequence: Int) async throws -> Bool
    ) async throws -> Result {
        _ = try await timedLoop(concurrency: concurrency, duration: warmup, sequenceBase: 1_000_000_000) { worker, sequence in
            { try await exchange(worker, sequence) }
        }
        let serverBefore = serverCPU()
        let clientBefore = CPUTime.ofThisProcess()
        var result = try await loop(concurrency: concurrency, duration: duration, exchange: exchange)
        if let serverBefore, let serverAfter = serverCPU() { result.serverCPUSeconds = serverAfter - serverBefore }
        if let clientBefore, let clientAfter = CPUTime.ofThisProcess() { result.clientCPUSeconds = clientAfter - clientBefore }
        return result
    }

    /// `concurrency` workers, each preparing an exchange (untimed), timing it, and starting the
    /// next until `duration` is over; latencies (µs) go into one histogram.
    fileprivate func timedLoop(
        concurrency: Int, duration: Duration, sequenceBase: Int,
        prepare: @escaping @Sendable (_ worker: Int, _ sequence: Int) -> @Sendable () async throws -> Bool
    ) async throws -> Result {
        let start = ContinuousClock.now
        let deadline = start + duration
        let partials = try await withThrowingTaskGroup(of: Result.self) { group in
            for worker in 0..<concurrency {
                group.addTask {
                    var histogram = Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
                    var requests = 0
                    var failures = 0
                    var sequence = sequenceBase
                    while ContinuousClock.now < deadline {
                        let exchange = prepare(worker, sequence)
                        sequence += 1
                        let sent = ContinuousClock.now
                        let succeeded = try await exchange()
                        let elapsed = ContinuousClock.now - sent
                        _ = histogram.record(UInt64(max(1, elapsed.components.seconds * 1_000_000 + elapsed.components.attoseconds / 1_000_000_000_000)))
                        requests += 1
                        if !succeeded { failures += 1 }
                    }
                    return Result(requests: requests, failures: failures, seconds: 0, histogram: histogram)
                }
            }
            var all: [Result] = []
            for try await partial in group { all.append(partial) }
            return all
        }
        let elapsed = ContinuousClock.now - start
        var total = Result(
            requests: 0, failures: 0, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18,
            histogram: Histogram<UInt64>(highestTrackableValue: 600_000_000, numberOfSignificantValueDigits: .three)
        )
        for partial in partials {
            total.requests += partial.requests
            total.failures += partial.failures
            total.histogram.add(partial.histogram)
        }
        return total
    }
}

extension HTTPClientRequest {
    /// A POST with a JSON body.
    static func post(_ url: String, body: Data, headers: [(String, String)] = []) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        return request
    }
}
