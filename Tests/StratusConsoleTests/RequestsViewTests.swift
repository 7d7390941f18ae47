import Foundation
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The console's Requests view: the CKWS requests the server answered, as the request log wrote
/// them, filtered by account, zone and errors, and live (newer rows fetched after a sequence).
@Suite struct RequestsViewTests {
    @Test func theRequestsViewListsWritesWithTheirAccountZoneAndItemErrorsAndFiltersThem() async throws {
        try await TestServer.run { server in
            _ = try await server.createZone("Log")
            let record = Record(recordName: "dup", recordType: "Note", fields: ["text": .string("a")])
            for _ in 0..<2 {
                _ = try await server.post("records/modify", ModifyRecordsRequest(operations: [RecordOperation(.create, record)], zoneID: ZoneID(zoneName: "Log")))
            }
            _ = try await server.post("zones/list", [String: String](), as: "bob")

            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development/requests"
            let all = try await browser.get(base)
            #expect(all.status == .ok)
            #expect(all.text.contains("POST records/modify") && all.text.contains("1 × EXISTS") && all.text.contains("Log"))
            #expect(all.text.contains("POST zones/list"))
            #expect(!all.text.contains(server.credentials.apiToken), "no token on the page")

            let errors = try await browser.get("\(base)?errors=1")
            #expect(errors.text.contains("1 × EXISTS") && !errors.text.contains("POST zones/list"))
            let bobs = try await browser.get("\(base)?account=\(server.userRecordName("bob"))")
            #expect(bobs.text.contains("POST zones/list") && !bobs.text.contains("POST records/modify"))

            let latest = try #require(Self.latest(all.text))
            let newer = try await browser.get("\(base)/rows?after=\(latest)")
            #expect(newer.status == .ok && !newer.text.contains("<tr"))
        }
    }

    /// The page's `data-latest`.
    static func latest(_ page: String) -> Int64? {
        guard let range = page.range(of: "data-latest=\"") else { return nil }
        return Int64(page[range.upperBound...].prefix { $0.isNumber })
    }
}
