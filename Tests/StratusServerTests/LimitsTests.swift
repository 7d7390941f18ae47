import Foundation
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("limits and malformed input over HTTP")
struct LimitsTests {
    /// Sends `body` to records/modify in zone Trips and checks it is rejected with 400 BAD_REQUEST
    /// and that the zone did not change.
    private func expectRejected(_ label: String, body: ByteBuffer, server: TestServer, limitExceeded: Bool = false) async throws {
        let before = try await server.allZoneChanges("Trips", limit: 200)
        let response = try await server.raw("records/modify", body: body)
        #expect(response.status == .badRequest, "\(label): \(response.status)")
        let error = try #require(response.errorBody, "\(label): \(response.text)")
        #expect(error.serverErrorCode == .badRequest, "\(label)")
        #expect(!error.reason.isEmpty && !error.uuid.isEmpty)
        if limitExceeded { #expect(error.nativeErrorCode == CKErrorCodeNumber.limitExceeded, "\(label): split the request") }
        let after = try await server.allZoneChanges("Trips", token: before.token, limit: 200)
        #expect(after.pages.flatMap(\.records).isEmpty, "\(label): something was written")
    }

    private func encode(_ request: ModifyRecordsRequest) throws -> ByteBuffer {
        ByteBuffer(data: try JSONEncoder().encode(request))
    }

    @Test("a record over 1 MB is its own limit-exceeded item; the rest of a non-atomic batch saves")
    func oversizedRecord() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let big = RecordOperation(.create, Records.destination("big", caption: String(repeating: "x", count: 1_000_001)))
            let results = try await server.modify([Records.create("small"), big], zone: "Trips", atomic: false)
            #expect(results[0].record?.recordName == "small")
            #expect(results[1].error?.serverErrorCode == .badRequest && results[1].error?.nativeErrorCode == CKErrorCodeNumber.limitExceeded)
            let atomic = try await server.modify([Records.create("other"), big], zone: "Trips")
            #expect(atomic[0].error?.serverErrorCode == .atomicError && atomic[1].error?.nativeErrorCode == CKErrorCodeNumber.limitExceeded)
            #expect(try await server.lookup(["small", "big", "other"], zone: "Trips").map { $0.record != nil } == [true, false, false])
        }
    }

    @Test("over-limit and malformed requests get BAD_REQUEST and change nothing")
    func rejectedRequests() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let zone = ZoneID(zoneName: "Trips")

            let tooMany = ModifyRecordsRequest(operations: (0...200).map { Records.create("r\($0)") }, zoneID: zone)
            try await expectRejected("201 operations", body: try encode(tooMany), server: server, limitExceeded: true)

            let hugeBody = ModifyRecordsRequest(
                operations: (0..<3).map { RecordOperation(.create, Records.destination("h\($0)", caption: String(repeating: "y", count: 900_000))) },
                zoneID: zone, atomic: false
            )
            try await expectRejected("body over 2 MB", body: try encode(hugeBody), server: server, limitExceeded: true)

            try await expectRejected("malformed JSON", body: ByteBuffer(string: #"{"operations": [ {"operationType": "create""#), server: server)
            try await expectRejected("not an object", body: ByteBuffer(string: "[1,2,3]"), server: server)
            try await expectRejected(
                "unknown operation type",
                body: ByteBuffer(string: #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"x","recordType":"Destination"}},{"operationType":"upsert","record":{"recordName":"y"}}]}"#),
                server: server
            )
            try await expectRejected(
                "unknown field type tag",
                body: ByteBuffer(string: #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"x","recordType":"Destination","fields":{"caption":{"value":"a","type":"TEXT"}}}}]}"#),
                server: server
            )
            try await expectRejected(
                "value not of its type",
                body: ByteBuffer(string: #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"x","recordType":"Destination","fields":{"visits":{"value":"many","type":"INT64"}}}}]}"#),
                server: server
            )
            try await expectRejected(
                "two operations on one record",
                body: try encode(ModifyRecordsRequest(operations: [Records.create("twice"), Records.create("twice")], zoneID: zone, atomic: false)),
                server: server
            )
            try await expectRejected("missing operations", body: ByteBuffer(string: #"{"zoneID":{"zoneName":"Trips"}}"#), server: server)
        }
    }

    @Test("exactly at the limits is accepted")
    func atTheLimit() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let results = try await server.modify((0..<200).map { Records.create("r\($0)") }, zone: "Trips")
            #expect(results.count == 200 && results.allSatisfy { $0.record != nil })
        }
    }

    @Test("lenient limits accept what strict ones refuse")
    func lenientLimits() async throws {
        try await TestServer.run(limits: .lenient) { server in
            try await server.createZone("Trips")
            let results = try await server.modify((0..<300).map { Records.create("r\($0)") }, zone: "Trips")
            #expect(results.count == 300 && results.allSatisfy { $0.record != nil })
        }
    }

    @Test("bad zone names and the default zone are refused per item by zones/modify")
    func zoneNames() async throws {
        try await TestServer.run { server in
            let request = ModifyZonesRequest(operations: [
                .init(.create, ZoneID(zoneName: "_reserved")), .init(.create, ZoneID(zoneName: "")),
                .init(.delete, ZoneID.defaultZone()), .init(.create, ZoneID(zoneName: "Fine")),
                .init(.delete, ZoneID(zoneName: "Missing")),
            ])
            let zones = try await server.call("zones/modify", request, expecting: ZonesResponse.self).zones
            let codes = zones.map { result -> String in
                switch result {
                case .success: "ok"
                case .failure(let error): error.serverErrorCode.rawValue
                }
            }
            #expect(codes == ["BAD_REQUEST", "BAD_REQUEST", "BAD_REQUEST", "ok", "ZONE_NOT_FOUND"])
            let lookup = try await server.call(
                "zones/lookup", LookupZonesRequest(zones: [ZoneID(zoneName: "Fine"), ZoneID(zoneName: "Missing")]), expecting: ZonesResponse.self
            )
            guard case .success(let fine) = lookup.zones[0], case .failure(let missing) = lookup.zones[1] else {
                throw TestFailure("zones/lookup: \(lookup)")
            }
            #expect(fine.atomic == true && fine.syncToken != nil)
            #expect(missing.serverErrorCode == .zoneNotFound)
        }
    }

    @Test("unknown routes get a CloudKit-shaped 404")
    func unknownRoute() async throws {
        try await TestServer.run { server in
            let response = try await server.raw("records/frobnicate", body: ByteBuffer(string: "{}"))
            #expect(response.status == .notFound)
            #expect(response.errorBody?.serverErrorCode == .notFound)
        }
    }
}
