import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

/// The measured workloads, each against a server under test.
struct Scenarios {
    let server: ServerUnderTest
    let runner: LoadRunner
    let duration: Duration

    /// The HTTP stack's ceiling: a single-record modify body decoded and encoded back, no auth, no storage.
    func echo(concurrency: Int) async throws -> LoadRunner.Result {
        let url = "\(server.baseURL)/stratus/v1/echo"
        let body = Workload.createBody(["echo"])
        return try await runner.run(concurrency: concurrency, duration: duration) { _, _ in .post(url, body: body) }
    }

    /// One create per records/modify request.
    func singleCreates(concurrency: Int, run: String) async throws -> LoadRunner.Result {
        // Each request asks for its URL: with several instances, requests alternate between them.
        return try await runner.run(concurrency: concurrency, duration: duration) { [server] worker, sequence in
            .post(server.url("records/modify"), body: Workload.createBody(["\(run)-\(worker)-\(sequence)"]))
        }
    }

    /// `perRequest` creates per records/modify request.
    func batchCreates(perRequest: Int, concurrency: Int, run: String) async throws -> LoadRunner.Result {
        return try await runner.run(concurrency: concurrency, duration: duration) { [server] worker, sequence in
            .post(server.url("records/modify"), body: Workload.createBody((0..<perRequest).map { "\(run)-\(worker)-\(sequence)-\($0)" }))
        }
    }

    /// Creates `count` records in zone `zone` with batches of 2,000 (the lenient limit), two requests at a time.
    func populate(zone: String, count: Int) async throws {
        let url = server.url("records/modify")
        let client = runner.client
        let batch = 2_000
        try await withThrowingTaskGroup(of: Void.self) { group in
            for lane in 0..<2 {
                group.addTask {
                    for start in stride(from: lane * batch, to: count, by: 2 * batch) {
                        let names = (start..<min(start + batch, count)).map { "\(zone)-\($0)" }
                        let request = ModifyRecordsRequest(
                            operations: names.map { RecordOperation(.create, Workload.destination($0)) }, zoneID: ZoneID(zoneName: zone), atomic: false
                        )
                        let response = try await client.execute(.post(url, body: JSONEncoder().encode(request)), timeout: .seconds(120))
                        _ = try await response.body.collect(upTo: 64 << 20)
                        guard response.status == .ok else { throw BenchError("populate failed: \(response.status)") }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Pages of 200 from random points of a zone of `count` records: tokens are built at random
    /// sequence positions inside the zone's history, so every depth is sampled.
    func changePages(zone: String, count: Int) async throws -> LoadRunner.Result {
        let zoneToken = try await currentToken(zone: zone)
        let server = server
        let first = max(0, zoneToken.sequence - Int64(count))
        let last = max(first + 1, zoneToken.sequence - 200)
        return try await runner.run(concurrency: 1, duration: duration) { _, _ in
            let token = ChangeToken(kind: .zone, zoneGeneration: zoneToken.zoneGeneration, sequence: Int64.random(in: first..<last))
            let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: zone), syncToken: token.encoded, resultsLimit: 200)])
            return .post(server.url("changes/zone"), body: (try? JSONEncoder().encode(request)) ?? Data())
        }
    }

    func createZone(_ name: String) async throws {
        let body = try JSONEncoder().encode(ModifyZonesRequest(operations: [.init(.create, ZoneID(zoneName: name))]))
        let response = try await runner.client.execute(.post(server.url("zones/modify"), body: body), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw BenchError("zone \(name) not created") }
    }

    private func currentToken(zone: String) async throws -> ChangeToken {
        let body = try JSONEncoder().encode(LookupZonesRequest(zones: [ZoneID(zoneName: zone)]))
        let response = try await runner.client.execute(.post(server.url("zones/lookup"), body: body), timeout: .seconds(10))
        let data = try await response.body.collect(upTo: 1 << 20)
        let zones = try JSONDecoder().decode(ZonesResponse.self, from: Data(buffer: data))
        guard case .success(let found)? = zones.zones.first, let text = found.syncToken, let token = ChangeToken(encoded: text) else {
            throw BenchError("zone \(zone) has no token")
        }
        return token
    }
}
