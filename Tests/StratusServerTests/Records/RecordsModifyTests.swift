import Foundation
import NIOCore
import StratusModel
import StratusServerTesting
import Testing

@Suite("records/modify over HTTP")
struct RecordsModifyTests {
    @Test("a stale recordChangeTag gets CONFLICT carrying the server's record, and changes nothing")
    func staleTagConflict() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            let firstTag = try #require(created.first?.record?.recordChangeTag)

            var update = Records.destination("paris", caption: "Paris, France")
            update.recordChangeTag = firstTag
            let updated = try await server.modify([RecordOperation(.update, update)], zone: "Trips")
            let secondTag = try #require(updated.first?.record?.recordChangeTag)
            #expect(secondTag != firstTag)

            var stale = Records.destination("paris", caption: "Lutetia")
            stale.recordChangeTag = firstTag
            let conflict = try await server.modify([RecordOperation(.update, stale)], zone: "Trips")
            let error = try #require(conflict.first?.error)
            #expect(error.serverErrorCode == .conflict)
            #expect(error.recordName == "paris")
            #expect(error.serverRecord?.recordChangeTag == secondTag)
            #expect(error.serverRecord?.fields?["caption"] == .string("Paris, France"))

            let current = try await server.lookup(["paris"], zone: "Trips")
            #expect(current.first?.record?.fields?["caption"] == .string("Paris, France"))
            #expect(current.first?.record?.recordChangeTag == secondTag)
        }
    }

    @Test("save policies: create on an existing name is EXISTS, forceUpdate ignores the tag, replace drops fields")
    func savePolicies() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let extra: [String: Field] = ["details": .string("old")]
            _ = try await server.modify([RecordOperation(.create, Records.destination("rome", caption: "Rome", extra: extra))], zone: "Trips")
            let again = try await server.modify([Records.create("rome")], zone: "Trips")
            #expect(again.first?.error?.serverErrorCode == .exists)
            #expect(again.first?.error?.serverRecord?.fields?["caption"] == .string("Rome"))

            let forced = try await server.modify([RecordOperation(.forceUpdate, Records.destination("rome", caption: "Roma"))], zone: "Trips")
            #expect(forced.first?.record?.fields?["caption"] == .string("Roma"))
            #expect(forced.first?.record?.fields?["details"] == .string("old"))

            var replace = Record(recordName: "rome", recordType: "Destination", fields: ["details": .string("new")])
            replace.recordChangeTag = forced.first?.record?.recordChangeTag
            let replaced = try await server.modify([RecordOperation(.replace, replace)], zone: "Trips")
            #expect(replaced.first?.record?.fields == ["details": .string("new")])

            let upserted = try await server.modify([RecordOperation(.forceReplace, Records.destination("oslo", caption: "Oslo"))], zone: "Trips")
            #expect(upserted.first?.record?.recordName == "oslo")

            var missing = Records.destination("nowhere", caption: "?")
            missing.recordChangeTag = "1"
            let notFound = try await server.modify([RecordOperation(.update, missing)], zone: "Trips")
            #expect(notFound.first?.error?.serverErrorCode == .notFound)

            var delete = Record(recordName: "oslo")
            delete.recordChangeTag = upserted.first?.record?.recordChangeTag
            let deleted = try await server.modify([RecordOperation(.delete, delete)], zone: "Trips")
            #expect(deleted.first?.record?.deleted == true)
            let gone = try await server.lookup(["oslo"], zone: "Trips")
            #expect(gone.first?.error?.serverErrorCode == .notFound)
            let again2 = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "oslo"))], zone: "Trips")
            #expect(again2.first?.record?.deleted == true)
        }
    }

    @Test(
        "an atomic batch with one bad item writes nothing",
        arguments: [
            ("stale tag", RecordOperation(.update, { var r = Records.destination("paris", caption: "x"); r.recordChangeTag = "zz"; return r }())),
            ("bad field name", RecordOperation(.create, Record(recordName: "bad", recordType: "Destination", fields: ["9lives": .string("x")]))),
            ("wrong field type", RecordOperation(.create, Record(recordName: "bad", recordType: "Destination", fields: ["caption": .int64(4)]))),
            ("bad record name", RecordOperation(.create, Record(recordName: "", recordType: "Destination", fields: [:]))),
            ("update without tag", RecordOperation(.update, Records.destination("paris", caption: "x"))),
        ]
    )
    func atomicBatchWritesNothing(_ label: String, bad: RecordOperation) async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            let before = try await server.allZoneChanges("Trips", limit: 200)

            let results = try await server.modify([Records.create("a"), bad, Records.create("b")], zone: "Trips")
            #expect(results.count == 3)
            #expect(results[0].error?.serverErrorCode == .atomicError, "\(label)")
            #expect(results[2].error?.serverErrorCode == .atomicError, "\(label)")
            let code = try #require(results[1].error?.serverErrorCode)
            #expect(code != .atomicError && code != .internalError, "\(label): \(code)")

            let lookups = try await server.lookup(["a", "b"], zone: "Trips")
            #expect(lookups.allSatisfy { $0.error?.serverErrorCode == .notFound }, "\(label)")
            let paris = try await server.lookup(["paris"], zone: "Trips")
            #expect(paris.first?.record?.fields?["caption"] == .string("Paris"))
            let after = try await server.allZoneChanges("Trips", token: before.token, limit: 200)
            #expect(after.pages.flatMap(\.records).isEmpty, "\(label): the zone changed")
        }
    }

    @Test("the default zone is not atomic: good items save beside a bad one")
    func defaultZoneIsNotAtomic() async throws {
        try await TestServer.run { server in
            let bad = RecordOperation(.create, Record(recordName: "bad", recordType: "Destination", fields: ["9lives": .string("x")]))
            let results = try await server.modify([Records.create("a"), bad], zone: ZoneID.defaultZoneName)
            #expect(results[0].record?.recordName == "a")
            #expect(results[1].error?.serverErrorCode == .badRequest)
        }
    }

    @Test("field values without a type resolve against the schema; all field types round-trip")
    func fieldTypes() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let fields: [String: Field] = [
                "caption": .string("Lisbon"),
                "visits": .int64(3),
                "rating": .double(4.5),
                "createdAt": .timestamp(milliseconds: 1_767_225_600_000),
                "image": .bytes(Data([0, 1, 2, 255])),
                "where": Field(.location(Location(latitude: 38.72, longitude: -9.14)), type: .location),
                "trip": Field(.reference(Reference(recordName: "trip-1", action: .deleteSelf)), type: .reference),
                "tags": Field(.list([.string("sea"), .string("food")]), type: .stringList),
                "days": Field(.list([.timestamp(1), .timestamp(2)]), type: .timestampList),
                "empty": Field(.list([]), type: .int64List),
            ]
            // The DELETE_SELF reference needs its target: saved after it in the same batch.
            let saved = try await server.modify([
                RecordOperation(.create, Record(recordName: "lisbon", recordType: "Destination", fields: fields)),
                RecordOperation(.create, Record(recordName: "trip-1", recordType: "Trip")),
            ], zone: "Trips")
            #expect(saved.first?.record?.fields == fields)

            // A bare number for a TIMESTAMP field is refused, as CloudKit refuses it.
            let bare = #"{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"braga","recordType":"Destination","fields":{"createdAt":{"value":1767225600001}}}}]}"#
            let refused = try await server.raw("records/modify", body: .init(string: bare)).decode(RecordsResponse.self)
            #expect(refused.records.first?.error?.serverErrorCode == .badRequest)
            #expect(refused.records.first?.error?.reason.hasPrefix("Invalid value, expected type TIMESTAMP") == true)

            // A bare base64 string for BYTES takes the schema's type; NUMBER_INT64 reads as INT64.
            let body = """
                {"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"porto",
                "recordType":"Destination","fields":{"createdAt":{"value":1767225600001,"type":"TIMESTAMP"},"image":{"value":"AAEC"},
                "tags":{"value":["a","b"]},"visits":{"value":7,"type":"NUMBER_INT64"}}}}]}
                """
            let response = try await server.raw("records/modify", body: .init(string: body))
            let record = try #require(try response.decode(RecordsResponse.self).records.first?.record)
            #expect(record.fields?["createdAt"] == .timestamp(milliseconds: 1_767_225_600_001))
            #expect(record.fields?["image"] == .bytes(Data([0, 1, 2])))
            #expect(record.fields?["tags"]?.type == .stringList)
            #expect(record.fields?["visits"] == .int64(7))
            #expect(response.text.contains("\"TIMESTAMP\"") && !response.text.contains("NUMBER_INT64"))

            // numbersAsStrings renders numbers as strings.
            let lookup = #"{"zoneID":{"zoneName":"Trips"},"records":[{"recordName":"porto"}],"numbersAsStrings":true,"desiredKeys":["visits"]}"#
            let strings = try await server.raw("records/lookup", body: .init(string: lookup))
            #expect(strings.text.contains(#""value":"7""#))
        }
    }

    @Test("desiredKeys limits the fields returned; [] returns system fields only")
    func desiredKeys() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let record = Records.destination("nice", caption: "Nice", extra: ["details": .string("beach")])
            _ = try await server.modify([RecordOperation(.create, record)], zone: "Trips")
            let request = LookupRecordsRequest(
                records: [.init(recordName: "nice"), .init(recordName: "nice", desiredKeys: [])],
                zoneID: ZoneID(zoneName: "Trips"), desiredKeys: ["details"]
            )
            let results = try await server.call("records/lookup", request, expecting: RecordsResponse.self).records
            #expect(results[0].record?.fields == ["details": .string("beach")])
            #expect(results[1].record?.fields == [:])
            #expect(results[1].record?.recordChangeTag != nil)
        }
    }
}
