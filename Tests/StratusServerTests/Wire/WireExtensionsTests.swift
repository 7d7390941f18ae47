import Foundation
import HTTPTypes
import StratusModel
import StratusServerTesting
import Testing

/// `X-Stratus-Extensions`: what the native framework knows beyond CKWS's JSON is kept, and
/// answered only to a client that asks — a CKWS client sees exactly Apple's keys.
@Suite("wire extensions")
struct WireExtensionsTests {
    static let asking: HTTPFields = [HTTPField.Name(WireExtensions.headerName)!: "exactDates,deletedRecordTypes"]
    /// 2026-11-28 with a sub-millisecond part, as a `Date` holds it (seconds since 2001).
    static let exact = 786_000_000.123_456_7

    static func save(_ server: TestServer) async throws -> (status: Int, body: [String: Any]) {
        let milliseconds = Int64(((exact + 978_307_200) * 1000).rounded())
        return try await server.json("records/modify", object: [
            "zoneID": ["zoneName": "Dates"],
            "operations": [["operationType": "create", "record": [
                "recordName": "seen", "recordType": "Visit",
                "fields": ["at": ["type": "TIMESTAMP", "value": milliseconds, "exactDates": [exact]]],
            ]]],
        ])
    }

    static func field(_ body: [String: Any]) -> [String: Any] {
        let record = items(body).first ?? [:]
        return (record["fields"] as? [String: Any])?["at"] as? [String: Any] ?? [:]
    }

    @Test("a date's exact value is kept, and answered only with exactDates asked for")
    func exactDates() async throws {
        try await TestServer.run { server in
            try await server.createZone("Dates")
            let saved = try await Self.save(server)
            #expect(saved.status == 200, "\(saved.body)")
            #expect(Set(Self.field(saved.body).keys) == ["type", "value"])
            let lookup = #"{"zoneID":{"zoneName":"Dates"},"records":[{"recordName":"seen"}]}"#
            let plain = try await server.json("records/lookup", lookup)
            #expect(Set(Self.field(plain.body).keys) == ["type", "value"], "\(plain.body)")
            let asked = try await server.json("records/lookup", lookup, headers: Self.asking)
            #expect(Self.field(asked.body)["exactDates"] as? [Double] == [Self.exact], "\(asked.body)")
            let changes = try await server.json("changes/zone", #"{"zones":[{"zoneID":{"zoneName":"Dates"}}]}"#, headers: Self.asking)
            let page = (changes.body["zones"] as? [[String: Any]])?.first ?? [:]
            #expect(Self.field(page)["exactDates"] as? [Double] == [Self.exact], "\(changes.body)")
        }
    }

    @Test("exactDates that do not fit the field are refused and change nothing")
    func misfitExactDates() async throws {
        try await TestServer.run { server in
            try await server.createZone("Dates")
            let answer = try await server.json("records/modify", object: [
                "zoneID": ["zoneName": "Dates"],
                "operations": [["operationType": "create", "record": [
                    "recordName": "bad", "recordType": "Visit",
                    "fields": ["title": ["type": "STRING", "value": "x", "exactDates": [1.5]]],
                ]]],
            ])
            #expect(answer.status == 400 && answer.body["serverErrorCode"] as? String == "BAD_REQUEST", "\(answer.body)")
            let lookup = try await server.json("records/lookup", #"{"zoneID":{"zoneName":"Dates"},"records":[{"recordName":"bad"}]}"#)
            #expect(items(lookup.body).first?["serverErrorCode"] as? String == "NOT_FOUND")
        }
    }

    @Test("a tombstone names its record type only to a client that asks")
    func deletedRecordTypes() async throws {
        try await TestServer.run { server in
            try await server.createZone("Dates")
            _ = try await Self.save(server)
            _ = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "seen"))], zone: "Dates")
            let body = #"{"zones":[{"zoneID":{"zoneName":"Dates"}}]}"#
            func tombstone(_ answer: (status: Int, body: [String: Any])) -> [String: Any] {
                ((answer.body["zones"] as? [[String: Any]])?.first?["records"] as? [[String: Any]])?.first ?? [:]
            }
            #expect(Set(tombstone(try await server.json("changes/zone", body)).keys) == ["recordName", "deleted", "zoneID"])
            let asked = tombstone(try await server.json("changes/zone", body, headers: Self.asking))
            #expect(asked["recordType"] as? String == "Visit" && asked["deleted"] as? Bool == true, "\(asked)")
        }
    }

    @Test("a zone names its zone-wide share only to a client that asks (zoneShares)")
    func zoneShares() async throws {
        try await TestServer.run { server in
            try await server.createZone("Family")
            try await server.createZone("Plain")
            _ = try await server.modify(
                [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readOnly)])], zone: "Family"
            )
            let asking: HTTPFields = [HTTPField.Name(WireExtensions.headerName)!: "zoneShares"]
            func zone(_ name: String, _ answer: (status: Int, body: [String: Any])) -> [String: Any] {
                items(answer.body, "zones").first { ($0["zoneID"] as? [String: Any])?["zoneName"] as? String == name } ?? [:]
            }
            let lookup = #"{"zones":[{"zoneName":"Family"},{"zoneName":"Plain"}]}"#
            let plainList = try await server.json("zones/list", "{}")
            let plainLookup = try await server.json("zones/lookup", lookup)
            for plain in [plainList, plainLookup] {
                #expect(plain.status == 200 && Set(zone("Family", plain).keys) == ["zoneID", "syncToken", "atomic"], "\(plain.body)")
            }
            let askedList = try await server.json("zones/list", "{}", headers: asking)
            let askedLookup = try await server.json("zones/lookup", lookup, headers: asking)
            for asked in [askedList, askedLookup] {
                let share = zone("Family", asked)["share"] as? [String: Any]
                #expect(share?["recordName"] as? String == ShareNames.zoneWideShare, "\(asked.body)")
                #expect((share?["zoneID"] as? [String: Any])?["zoneName"] as? String == "Family", "\(asked.body)")
                #expect(zone("Plain", asked)["share"] == nil, "\(asked.body)")
            }
        }
    }
}
