import Foundation
import StratusModel
import Testing

@Suite("Apple's JSON: decode liberally, encode strictly")
struct WireFormatTests {
    private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(json.utf8))
    }

    private func reencode<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }

    @Test("a typed record as Apple's servers send it decodes and round-trips")
    func appleRecord() throws {
        let json = """
            { "recordName": "item-1", "recordType": "Item", "recordChangeTag": "k9",
              "fields": { "title": { "value": "Milk", "type": "STRING" }, "qty": { "value": 2, "type": "INT64" },
                          "due": { "value": 1730000000000, "type": "TIMESTAMP" },
                          "list": { "value": { "recordName": "list-1", "action": "DELETE_SELF",
                                               "zoneID": { "zoneName": "Lists", "ownerRecordName": "_ab12" } }, "type": "REFERENCE" },
                          "where": { "value": { "latitude": 37.33, "longitude": -122.03 }, "type": "LOCATION" },
                          "photo": { "value": { "fileChecksum": "abc", "size": 10, "downloadURL": "https://x" }, "type": "ASSETID" },
                          "blob": { "value": "AAEC", "type": "BYTES" },
                          "tags": { "value": ["a", "b"], "type": "STRING_LIST" },
                          "scores": { "value": [1.5, 2], "type": "DOUBLE_LIST" } },
              "pluginFields": {},
              "created": { "timestamp": 1731000000123, "userRecordName": "_ab12", "deviceID": "2" },
              "modified": { "timestamp": 1731000000123, "userRecordName": "_ab12", "deviceID": "2" },
              "deleted": false, "zoneID": { "zoneName": "Lists", "ownerRecordName": "_ab12", "zoneType": "REGULAR_CUSTOM_ZONE" } }
            """
        let record = try decode(Record.self, json)
        let fields = try #require(record.fields)
        #expect(fields["title"] == .string("Milk"))
        #expect(fields["qty"] == .int64(2))
        #expect(fields["due"] == .timestamp(milliseconds: 1_730_000_000_000))
        #expect(fields["list"]?.value == .reference(Reference(recordName: "list-1", zoneID: ZoneID(zoneName: "Lists", ownerRecordName: "_ab12"), action: .deleteSelf)))
        #expect(fields["where"]?.value == .location(Location(latitude: 37.33, longitude: -122.03)))
        #expect(fields["photo"]?.type == .assetID)
        #expect(fields["blob"] == .bytes(Data([0, 1, 2])))
        #expect(fields["tags"]?.value == .list([.string("a"), .string("b")]))
        #expect(fields["scores"]?.value == .list([.double(1.5), .double(2)]))
        #expect(record.created?.deviceID == "2")
        #expect(try reencode(record) == record)
    }

    @Test("untyped values are inferred and marked as such")
    func inferredTypes() throws {
        let record = try decode(Record.self, """
            { "recordName": "r", "fields": { "s": { "value": "x" }, "i": { "value": 3 }, "d": { "value": 2.5 },
              "b": { "value": true }, "loc": { "value": { "latitude": 1, "longitude": 2 } },
              "ref": { "value": { "recordName": "other" } }, "ints": { "value": [1, 2] }, "mixed": { "value": [1, 2.5] } } }
            """)
        let fields = try #require(record.fields)
        #expect(fields.values.allSatisfy { $0.isTypeInferred })
        #expect(fields["s"]?.type == .string)
        #expect(fields["i"]?.type == .int64)
        #expect(fields["d"]?.type == .double)
        #expect(fields["b"]?.value == .int64(1))
        #expect(fields["loc"]?.type == .location)
        #expect(fields["ref"]?.type == .reference)
        #expect(fields["ints"]?.type == .int64List)
        #expect(fields["mixed"]?.value == .list([.double(1), .double(2.5)]))
        #expect(fields["i"]?.resolved(as: .timestamp) == .timestamp(milliseconds: 3))
        #expect(fields["s"]?.resolved(as: .int64) == nil)
    }

    @Test("variants from clients in the wild: ownerName, NUMBER_INT64, metaSyncToken, numberAsStrings, numbers as strings")
    func liberalVariants() throws {
        let zone = try decode(ZoneID.self, #"{ "zoneName": "Z", "ownerName": "_owner" }"#)
        #expect(zone.ownerRecordName == "_owner")
        let encoded = String(decoding: try JSONEncoder().encode(zone), as: UTF8.self)
        #expect(encoded.contains("ownerRecordName") && !encoded.contains("ownerName\""))

        let field = try decode(Field.self, #"{ "value": "42", "type": "NUMBER_INT64" }"#)
        #expect(field == .int64(42))
        #expect(String(decoding: try JSONEncoder().encode(field), as: UTF8.self).contains("\"INT64\""))

        #expect(try decode(DatabaseChangesRequest.self, #"{ "metaSyncToken": "abc" }"#).syncToken == "abc")
        #expect(try decode(ZoneChangesRequest.self, #"{ "zones": [], "numberAsStrings": true }"#).numbersAsStrings == true)
    }

    @Test("wrong values for their type, unknown tags and unknown operation types fail to decode")
    func strictWhereItMatters() {
        #expect(throws: DecodingError.self) { try decode(Field.self, #"{ "value": "many", "type": "INT64" }"#) }
        #expect(throws: DecodingError.self) { try decode(Field.self, #"{ "value": "x", "type": "TEXT" }"#) }
        #expect(throws: DecodingError.self) { try decode(Field.self, #"{ "value": "!!", "type": "BYTES" }"#) }
        #expect(throws: DecodingError.self) { try decode(Field.self, #"{ "value": [1, "a"] }"#) }
        #expect(throws: DecodingError.self) {
            try decode(RecordOperation.self, #"{ "operationType": "upsert", "record": {} }"#)
        }
    }

    @Test("numbersAsStrings renders numbers as strings")
    func numbersAsStrings() throws {
        let encoder = JSONEncoder()
        encoder.userInfo[.numbersAsStrings] = true
        let text = String(decoding: try encoder.encode(["n": Field.int64(7), "d": .double(1.5)]), as: UTF8.self)
        #expect(text.contains(#""value":"7""#) && text.contains(#""value":"1.5""#))
    }

    @Test("per-item errors and records are told apart in a records array")
    func recordResults() throws {
        let response = try decode(RecordsResponse.self, """
            { "records": [ { "recordName": "a", "recordType": "T", "recordChangeTag": "1" },
                           { "recordName": "b", "serverErrorCode": "NOT_FOUND", "reason": "Record not found", "uuid": "u" } ] }
            """)
        #expect(response.records[0].record?.recordName == "a")
        #expect(response.records[1].error?.serverErrorCode == .notFound)
        #expect(try reencode(response) == response)
    }

    @Test("unknown server error codes still decode")
    func unknownErrorCode() throws {
        let body = try decode(ErrorBody.self, #"{ "uuid": "u", "serverErrorCode": "SOMETHING_NEW", "reason": "r" }"#)
        #expect(body.serverErrorCode.rawValue == "SOMETHING_NEW")
        #expect(ServerErrorCode.authenticationRequired.httpStatus == 421)
    }

    @Test("change tokens are opaque round trips, and anything else is refused", arguments: [Int64(0), 1, 200, Int64.max])
    func changeTokens(sequence: Int64) {
        let token = ChangeToken(kind: .zone, zoneGeneration: 7, sequence: sequence)
        #expect(ChangeToken(encoded: token.encoded) == token)
        #expect(ChangeToken(encoded: "not a token") == nil)
        #expect(ChangeToken(encoded: Data([9, 1]).base64EncodedString()) == nil)
    }
}
