import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusModel

/// Query workloads on a zone of `count` records with an INT64 field `n` (a random permutation)
/// and a STRING field `city` (one of 1,000 values): an equality query and a sorted range query,
/// each measured before and after QUERYABLE + SORTABLE indexes are added.
struct QueryScenarios {
    let scenarios: Scenarios

    static let zone = "Queries"

    func populate(count: Int) async throws {
        let server = scenarios.server
        let client = scenarios.runner.client
        try await scenarios.createZone(QueryScenarios.zone)
        let values = (0..<count).shuffled()
        let url = server.url("records/modify")
        for start in stride(from: 0, to: count, by: 2_000) {
            let operations = values[start..<min(start + 2_000, count)].map { value in
                RecordOperation(.create, Record(recordName: "q\(value)", recordType: "Place", fields: [
                    "n": .int64(Int64(value)), "city": .string("city-\(value % 1_000)"),
                    "details": .string("A short note about the place, the food, the people and the weather there."),
                ]))
            }
            let body = try JSONEncoder().encode(ModifyRecordsRequest(operations: Array(operations), zoneID: ZoneID(zoneName: QueryScenarios.zone), atomic: false))
            let response = try await client.execute(.post(url, body: body), timeout: .seconds(120))
            _ = try await response.body.collect(upTo: 64 << 20)
            guard response.status == .ok else { throw BenchError("populate failed: \(response.status)") }
        }
    }

    /// `city = city-<random>`: 0.1 % of the zone matches.
    func equality(count: Int) async throws -> LoadRunner.Result {
        try await run { _ in
            Query(recordType: "Place", filterBy: [QueryFilter(.equals, field: "city", .string("city-\(Int.random(in: 0..<1_000))"))])
        }
    }

    /// `n >= <random>` sorted by `n`, one page of 200.
    func sortedRange(count: Int) async throws -> LoadRunner.Result {
        try await run { _ in
            Query(
                recordType: "Place", filterBy: [QueryFilter(.greaterThanOrEquals, field: "n", .int64(Int64.random(in: 0..<Int64(max(1, count - 200)))))],
                sortBy: [QuerySort(field: "n")]
            )
        }
    }

    /// Adds QUERYABLE and SORTABLE indexes on `n` and `city` through the admin API.
    func addIndexes() async throws {
        let server = scenarios.server
        for field in ["n", "city"] {
            for kind in [IndexKind.queryable, .sortable] {
                var request = HTTPClientRequest(url: "\(server.baseURL)/stratus/v1/admin/schema/indexes")
                request.method = .POST
                request.headers.add(name: "Authorization", value: "Bearer \(server.credentials.adminToken)")
                let change = IndexChangeRequest(
                    container: server.credentials.container, environment: .development, recordType: "Place", fieldName: field, index: kind
                )
                request.body = .bytes(ByteBuffer(data: try JSONEncoder().encode(change)))
                let response = try await scenarios.runner.client.execute(request, timeout: .seconds(300))
                _ = try await response.body.collect(upTo: 1 << 20)
                guard response.status == .ok else { throw BenchError("index on \(field) not added") }
            }
        }
    }

    private func run(_ makeQuery: @escaping @Sendable (Int) -> Query) async throws -> LoadRunner.Result {
        let url = scenarios.server.url("records/query")
        return try await scenarios.runner.run(concurrency: 1, duration: scenarios.duration) { _, sequence in
            let request = QueryRecordsRequest(query: makeQuery(sequence), zoneID: ZoneID(zoneName: QueryScenarios.zone), resultsLimit: 200)
            return .post(url, body: (try? JSONEncoder().encode(request)) ?? Data())
        }
    }
}
