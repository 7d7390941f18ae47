import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// Fault rules over real HTTP: each action, `count` retiring a rule, seeded probability repeating
/// itself, matching on zone and record type from the body, and bad rules refused.
@Suite struct FaultRuleTests {
    @Test func throttledTwiceThenSuccessWithRetryAfterInBodyAndHeader() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let rule = try await server.addFault(
                FaultMatch(endpoint: "records/modify", userRecordName: server.userRecordName("alice")),
                .error(.throttled, retryAfter: 2), count: 2
            )
            for attempt in 1...2 {
                let response = try await server.post("records/modify", Self.create("t\(attempt)", zone: "Trips"))
                #expect(response.status.code == 429, "\(response.text)")
                #expect(response.errorBody?.serverErrorCode == .throttled)
                #expect(response.errorBody?.retryAfter == 2)
                #expect(response.headers[.retryAfter] == "2")
            }
            let third = try await server.modify([Records.create("t3")], zone: "Trips")
            #expect(third.first?.record?.recordName == "t3")
            // Bob is not matched; nothing alice was refused was written.
            #expect(try await server.post("records/modify", Self.create("b1", zone: "_defaultZone"), as: "bob").status == .ok)
            #expect(try await server.lookup(["t1", "t2"], zone: "Trips").allSatisfy { $0.error?.serverErrorCode == .notFound })
            let listed = try await server.faults().faults.first { $0.faultID == rule.faultID }
            #expect(listed?.fired == 2 && listed?.retired == true)
        }
    }

    @Test func itemErrorFailsOnlyTheMatchingRecordsAsTheZoneWould() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.addFault(FaultMatch(endpoint: "records/modify", recordType: "Photo"), .itemError(.quotaExceeded))
            let photo = RecordOperation(.create, Record(recordName: "photo1", recordType: "Photo", fields: ["caption": .string("p")]))
            // The default zone is not atomic: the Destination is saved, the Photo refused.
            let loose = try await server.modify([photo, Records.create("dest1")], zone: "_defaultZone")
            #expect(loose.first?.error?.serverErrorCode == .quotaExceeded)
            #expect(loose.last?.record?.recordName == "dest1")
            #expect(try await server.lookup(["photo1"], zone: "_defaultZone").first?.error?.serverErrorCode == .notFound)
            // A custom zone is: nothing is saved.
            let atomic = try await server.modify([photo, Records.create("dest2")], zone: "Trips")
            #expect(atomic.first?.error?.serverErrorCode == .quotaExceeded)
            #expect(atomic.last?.error?.serverErrorCode == .atomicError)
            #expect(try await server.lookup(["dest2"], zone: "Trips").first?.error?.serverErrorCode == .notFound)
        }
    }

    @Test func aRuleWithAnErrorCodeOrEndpointCloudKitDoesNotHaveIsRefusedAndNothingIsCreated() async throws {
        try await TestServer.run { server in
            for action in [FaultAction.error(ServerErrorCode("THROTLED"), retryAfter: nil), .itemError(ServerErrorCode("QUOTA_EXCEDED"))] {
                let response = try await server.admin("faults", CreateFaultRequest(match: FaultMatch(endpoint: "records/modify"), action: action))
                #expect(response.status == .badRequest, "\(response.text)")
                #expect(response.text.contains("THROTTLED"), "the answer lists the codes there are")
            }
            let typo = try await server.admin("faults", CreateFaultRequest(match: FaultMatch(endpoint: "records/modfy"), action: .latency(milliseconds: 10)))
            #expect(typo.status == .badRequest && typo.text.contains("records/modify"), "\(typo.text)")
            #expect(try await server.faults().faults.isEmpty)
        }
    }

    @Test func latencyDelaysTheAnswerOnce() async throws {
        try await TestServer.run { server in
            let rule = try await server.addFault(FaultMatch(endpoint: "records/lookup"), .latency(milliseconds: 300), count: 1)
            let clock = ContinuousClock()
            let started = clock.now
            _ = try await server.lookup(["anything"], zone: "_defaultZone")
            #expect(clock.now - started >= .milliseconds(300))
            _ = try await server.lookup(["anything"], zone: "_defaultZone")
            let listed = try await server.faults().faults.first { $0.faultID == rule.faultID }
            #expect(listed?.matched == 1 && listed?.fired == 1 && listed?.retired == true)
        }
    }

    @Test func commitThenDropClosesTheConnectionAfterTheWriteIsDurable() async throws {
        try await TestServer.run(live: true) { server in
            try await server.createZone("Trips")
            _ = try await server.addFault(FaultMatch(endpoint: "records/modify"), .dropResponseAfterCommit, count: 1)
            let answer = try await server.onFreshConnection("records/modify", Self.create("dropped", zone: "Trips"))
            #expect(answer == "", "the client heard: \(answer)")
            #expect(try await server.lookup(["dropped"], zone: "Trips").first?.record?.fields?["caption"]?.value == .string("caption"))
        }
    }

    @Test func aSeededProbabilityRuleFiresOnTheSameRequestsEveryRun() async throws {
        try await TestServer.run { server in
            func pattern() async throws -> String {
                _ = try await server.admin("faults", method: .delete)
                _ = try await server.addFault(
                    FaultMatch(endpoint: "records/lookup"), .error(.tryAgainLater, retryAfter: 1), probability: 0.5, seed: 7
                )
                var marks = ""
                for _ in 0..<24 {
                    let status = try await server.post("records/lookup", LookupRecordsRequest(records: [.init(recordName: "x")])).status
                    marks += status == .serviceUnavailable ? "x" : status == .ok ? "." : "?"
                }
                return marks
            }
            let first = try await pattern()
            #expect(try await pattern() == first)
            #expect(first.contains("x") && first.contains(".") && !first.contains("?"), "\(first)")
        }
    }

    @Test func rulesMatchTheZoneNamedInTheBody() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            // Every key of the contract's `match`: the rule below matches alice's private Trips zone only.
            let match = FaultMatch(
                container: DevSeeder.container, environment: .development, database: .private, userRecordName: server.userRecordName("alice"),
                zoneName: "Trips"
            )
            _ = try await server.addFault(match, .error(.tryAgainLater, retryAfter: 1))
            #expect(try await server.post("records/modify", Self.create("d", zone: "_defaultZone")).status == .ok)
            #expect(try await server.post("records/modify", Self.create("t", zone: "Trips")).status == .serviceUnavailable)
            let changes = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: "Trips"))])
            #expect(try await server.post("changes/zone", changes).status == .serviceUnavailable)
            #expect(try await server.admin("faults", method: .delete).status == .ok)
            #expect(try await server.post("changes/zone", changes).status == .ok)
        }
    }

    @Test func badRulesAreRefusedAndUnknownOnesAreNotFound() async throws {
        try await TestServer.run { server in
            let twoActions = #"{"action": {"latencyMs": 5, "dropResponseAfterCommit": true}}"#
            let response = try await server.client.execute(
                uri: "/stratus/v1/admin/faults", method: .post, headers: [.authorization: "Bearer \(server.credentials.adminToken)"],
                body: .init(string: twoActions)
            )
            #expect(response.status == .badRequest && response.text.contains("exactly one"), "\(response.text)")
            let badProbability = try await server.admin("faults", CreateFaultRequest(action: .latency(milliseconds: 1), probability: 2))
            #expect(badProbability.status == .badRequest)
            #expect(try await server.admin("faults/fault-99", method: .delete).status == .notFound)
            #expect(try await server.faults().faults.isEmpty)
        }
    }

    @Test func buggifyInjectsTheSameTransientFaultsForTheSameSeed() async throws {
        func run() async throws -> String {
            try await TestServer.run(buggify: BuggifySetting(rate: 0.5, seed: 11), live: true) { server in
                var marks = ""
                for _ in 0..<16 {
                    // A connection each: a lost answer closes its connection.
                    let answer = try await server.onFreshConnection("records/lookup", LookupRecordsRequest(records: [.init(recordName: "x")]))
                    let status = answer.split(separator: " ").dropFirst().first.map(String.init) ?? "dropped"
                    marks += status == "200" ? "." : "[\(status)]"
                    if status == "429" || status == "503" { #expect(answer.contains("\"retryAfter\":1")) }
                }
                let fired = try await server.faults().buggify?.fired ?? 0
                #expect(fired > 0)
                return marks
            }
        }
        let first = try await run()
        #expect(try await run() == first)
        #expect(first.contains(".") && first != String(repeating: ".", count: 16), "\(first)")
    }

    static func create(_ name: String, zone: String) -> ModifyRecordsRequest {
        ModifyRecordsRequest(operations: [Records.create(name)], zoneID: ZoneID(zoneName: zone))
    }
}

extension TestServer {
    /// Adds a fault rule through the admin API.
    func addFault(
        _ match: FaultMatch, _ action: FaultAction, count: Int? = nil, probability: Double? = nil, seed: UInt64? = nil
    ) async throws -> FaultRule {
        let response = try await admin("faults", CreateFaultRequest(match: match, action: action, count: count, probability: probability, seed: seed))
        #expect(response.status == .created, "\(response.text)")
        return try response.decode(FaultRule.self)
    }

    /// POSTs `request` as alice on a connection of its own and returns what came back before the
    /// server closed it (`""`: nothing, the answer was dropped).
    func onFreshConnection<Body: Encodable>(_ operation: String, _ request: Body) async throws -> String {
        let body = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let connection = try RawConnection(port: try #require(client.port))
        try connection.send(
            "POST \(TestServer.base)/private/\(operation)?\(query("alice")) HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        )
        // The whole answer: its body may come in a segment after its headers.
        return try await connection.receiveUntilClosed(waiting: 10)
    }

    func faults() async throws -> FaultsResponse {
        try await admin("faults", method: .get).decode(FaultsResponse.self)
    }
}
