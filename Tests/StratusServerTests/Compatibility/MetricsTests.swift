import Foundation
import HTTPTypes
import HummingbirdTesting
import StratusModel
import StratusServerTesting
import Testing

/// `/metrics` scraped over HTTP: Prometheus text with requests counted by route and status, their
/// durations, and the gauge of held push connections.
@Suite struct MetricsTests {
    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        try await TestServer.run(live: true) { server in
            _ = try await server.lookup(["nothing"], zone: "_defaultZone")
            _ = try await server.modify([Records.create("written")], zone: "_defaultZone")
            _ = try await server.post("records/modify", ["operations": "not a list"])
            let scrape = try await server.client.execute(uri: "/metrics", method: .get, headers: [:], body: nil)
            #expect(scrape.status == .ok && scrape.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = scrape.text
            #expect(text.contains("# TYPE hb_requests counter"), "\(text.prefix(500))")
            let lookups = text.split(separator: "\n").filter { $0.hasPrefix("hb_requests{") && $0.contains("records/lookup") }
            #expect(lookups.contains { $0.contains("status_code=\"200\"") }, "\(lookups)")
            let refused = text.split(separator: "\n").filter { $0.hasPrefix("hb_requests{") && $0.contains("records/modify") }
            #expect(refused.contains { $0.contains("status_code=\"400\"") }, "\(refused)")
            #expect(text.contains("http_server_request_duration"))
            #expect(text.contains("stratus_push_held_connections"))
            #expect(text.contains("stratus_group_commit_batches"), "group-commit sizes")
        }
    }
}
