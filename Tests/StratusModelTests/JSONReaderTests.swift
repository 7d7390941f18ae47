import Foundation
import StratusModel
import Testing

/// `JSONReader` is a fast path for records/modify bodies: wherever it answers, it must answer
/// what `JSONDecoder` does; where it cannot be sure it must step aside (`nil`).
@Suite("JSONReader reads what JSONDecoder reads, or steps aside")
struct JSONReaderTests {
    private func fast(_ json: String) -> ModifyRecordsRequest? {
        Data(json.utf8).withUnsafeBytes { JSONReader.read(ModifyRecordsRequest.self, from: $0) }
    }

    private func foundation(_ json: String) -> ModifyRecordsRequest? {
        try? JSONDecoder().decode(ModifyRecordsRequest.self, from: Data(json.utf8))
    }

    /// The reader answers `json`, with what `JSONDecoder` answers.
    private func expectRead(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let read = fast(json)
        #expect(read != nil, "the reader stepped aside: \(json)", sourceLocation: sourceLocation)
        #expect(read == foundation(json), "\(json)", sourceLocation: sourceLocation)
    }

    /// The reader steps aside for `json`, whatever `JSONDecoder` makes of it.
    private func expectStepsAside(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fast(json) == nil, "\(json)", sourceLocation: sourceLocation)
    }

    private func body(_ record: String, extra: String = "") -> String {
        #"{"operations":[{"operationType":"create","record":\#(record)}],"zoneID":{"zoneName":"Bench"}\#(extra)}"#
    }

    @Test("bodies JSONEncoder wrote: every field type the reader takes, zones, parents, desired keys")
    func encodedBodies() throws {
        var record = Record(recordName: "r/1", recordType: "Destination", fields: [
            "caption": .string(JSONWriterTests.awkwardText),
            "count": .int64(.min),
            "ratio": .double(0.1),
            "big": .double(1e300),
            "when": .timestamp(milliseconds: 1_767_225_600_000),
            "image": .bytes(Data(repeating: 0xAB, count: 96)),
            "encrypted": Field(.bytes(Data([1, 2, 3])), type: .encryptedBytes),
            "owner": Field(.reference(Reference(recordName: "p", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_o"), action: .deleteSelf))),
            "bare": Field(.reference(Reference(recordName: "q", action: nil))),
            "tags": Field(.list([.string("a"), .string("b")]), type: .stringList),
            "counts": Field(.list([.int64(1), .int64(-2)]), type: .int64List),
            "scores": Field(.list([.double(1), .double(2.5)]), type: .doubleList),
            "days": Field(.list([.timestamp(1)]), type: .timestampList),
            "links": Field(.list([.reference(Reference(recordName: "x"))]), type: .referenceList),
            "blobs": Field(.list([.bytes(Data([9]))]), type: .bytesList),
            "none": Field(.list([]), type: .stringList),
        ])
        record.recordChangeTag = "k9"
        record.parent = RecordPointer(recordName: "root", recordChangeTag: "t", zoneID: ZoneID(zoneName: "Bench"))
        record.createShortGUID = true
        var request = ModifyRecordsRequest(
            operations: [
                RecordOperation(.create, record, desiredKeys: ["caption"]),
                RecordOperation(.forceDelete, Record(recordName: "gone")),
                RecordOperation(.update, Record(recordName: "u", recordChangeTag: "a", fields: ["n": .int64(1)])),
                RecordOperation(.forceUpdate, {
                    var clearing = Record(recordName: "c", fields: ["n": .int64(2)])
                    clearing.clearedFields = ["mood", "title"]
                    clearing.clearsParent = true
                    return clearing
                }()),
            ],
            zoneID: ZoneID(zoneName: "Bench", ownerRecordName: "_u"), atomic: false, desiredKeys: []
        )
        request.numbersAsStrings = false
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        expectRead(json)
        #expect(fast(json) == request)
    }

    @Test("what clients type by hand: whitespace, escapes, nulls, Apple's aliases, untyped strings, unknown keys")
    func handWrittenBodies() {
        expectRead(" \n\t{ \"operations\" : [ ] } \r\n")
        expectRead(body(#"{"recordName":"caf\u00e9\/\n\"q\"","recordType":"T","fields":{"t":{"value":"x"}}}"#))
        expectRead(body(#"{"recordType":"T","fields":{"n":{"type":"NUMBER_INT64","value":5},"d":{"value":2,"type":"NUMBER_DOUBLE"}}}"#))
        expectRead(body(#"{"recordType":"T","fields":{"d":{"value":-1.5E+3,"type":"DOUBLE"},"e":{"value":0,"type":"DOUBLE"}}}"#))
        expectRead(body(#"{"recordName":null,"recordType":"T","parent":null,"fields":null,"zoneID":{"zoneName":"Z","ownerName":"_o","zoneType":"REGULAR_CUSTOM_ZONE"}}"#))
        expectRead(body(#"{"recordType":"T","extra":{"deep":[1,2.5,true,false,null,"s",{"k":[]}]},"fields":{}}"#, extra: #","unknown":[{}]"#))
        expectRead(body(#"{"recordType":"T"}"#, extra: #","atomic":true,"numbersAsStrings":null,"desiredKeys":["a","b"]"#))
        expectRead(body(#"{"recordType":"T","fields":{"r":{"type":"REFERENCE","value":{"recordName":"p","action":"VALIDATE","zoneID":null}}}}"#))
    }

    @Test("what is JSONDecoder's to decide: refusals, inference, rare keys, repeats, odd numbers and strings")
    func stepsAside() {
        // Invalid or truncated JSON, and trailing bytes.
        for json in ["", "{", "[]", "null", #"{"operations":[]} x"#, #"{"operations":[],}"#, #"{"operations":[] "zoneID":{}}"#] {
            expectStepsAside(json)
        }
        // Missing or wrong required values.
        expectStepsAside(#"{"zoneID":{"zoneName":"Z"}}"#)
        expectStepsAside(#"{"operations":[{"operationType":"upsert","record":{}}]}"#)
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":"5"}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":5.0}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":1e3}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":-0}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":01}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":99999999999999999999}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"type":"INT64","value":true}}}"#))
        // Doubles JSONDecoder will not round to zero or infinity.
        for number in ["1e-400", "-2e-324", "1e999"] {
            expectStepsAside(body(#"{"recordType":"T","fields":{"d":{"type":"DOUBLE","value":\#(number)}}}"#))
            expectStepsAside(body(#"{"recordType":"T","fields":{"d":{"type":"DOUBLE_LIST","value":[1,\#(number)]}}}"#))
        }
        expectRead(body(#"{"recordType":"T","fields":{"d":{"type":"DOUBLE","value":-0.0e-400},"e":{"type":"DOUBLE","value":5e-324}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"b":{"type":"BYTES","value":"not base64!"}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"x":{"type":"NOPE","value":1}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"x":{"type":null,"value":"s"}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"x":{"type":"STRING"}}}"#))
        // Inference and the rarer types and keys.
        expectStepsAside(body(#"{"recordType":"T","fields":{"n":{"value":5}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"l":{"value":{"latitude":1,"longitude":2},"type":"LOCATION"}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"a":{"value":{"fileChecksum":"c"},"type":"ASSET"}}}"#))
        expectStepsAside(body(#"{"recordType":"cloudkit.share","participants":[]}"#))
        expectStepsAside(body(#"{"recordType":"T","created":{"timestamp":1}}"#))
        expectStepsAside(body(#"{"recordType":"T","zoneID":{"zoneName":"Z","zoneType":"SHARED"}}"#))
        // Repeated keys, at every level.
        expectStepsAside(#"{"operations":[],"operations":[]}"#)
        expectStepsAside(body(#"{"recordType":"T","recordType":"U"}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"a":{"value":"x"},"a":{"value":"y"}}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"a":{"value":"x","value":"y"}}}"#))
        expectStepsAside(#"{"operations":[{"operationType":"create","operationType":"update","record":{}}]}"#)
        expectStepsAside(body(#"{"recordType":"T","zoneID":{"zoneName":"Z","zoneName":"Y"}}"#))
        expectStepsAside(body(#"{"recordType":"T","parent":{"recordName":"p","recordChangeTag":"a","recordChangeTag":"b"}}"#))
        expectStepsAside(body(#"{"recordType":"T","fields":{"r":{"type":"REFERENCE","value":{"recordName":"p","action":"NONE","action":"VALIDATE"}}}}"#))
        // A repeat of a key the type does not have is skipped, as JSONDecoder skips it.
        expectRead(body(#"{"recordType":"T","extra":1,"extra":2}"#))
        // Strings: raw controls, surrogates, bad escapes, invalid UTF-8.
        expectStepsAside(body("{\"recordName\":\"a\u{1}b\",\"recordType\":\"T\"}"))
        expectStepsAside(body(#"{"recordName":"\ud83d\ude00","recordType":"T"}"#))
        expectStepsAside(body(#"{"recordName":"\x","recordType":"T"}"#))
        expectStepsAside(body(#"{"recordName":"\u12G4","recordType":"T"}"#))
        var invalid = Array(body(#"{"recordName":"??","recordType":"T"}"#).utf8)
        if let mark = invalid.firstIndex(of: UInt8(ascii: "?")) { invalid[mark] = 0xFF }
        #expect(invalid.withUnsafeBytes { JSONReader.read(ModifyRecordsRequest.self, from: $0) } == nil)
    }

    @Test("stored fields: what JSONWriter stores reads back the same, and locations and assets are JSONDecoder's")
    func storedFields() throws {
        let plain: [String: Field] = [
            "url": .string("https://example.com/a"), "n": .int64(7), "d": .double(2), "t": .timestamp(milliseconds: 5),
            "b": .bytes(Data([0, 255])), "r": Field(.reference(Reference(recordName: "p", action: nil))),
        ]
        let bytes = try plain.jsonBytes(escapesSlashes: true)
        #expect(bytes.withUnsafeBytes { JSONReader.read([String: Field].self, from: $0) } == plain)
        #expect(try JSONDecoder().decode([String: Field].self, from: Data(bytes)) == plain)

        let rare: [String: Field] = ["place": Field(.location(Location(latitude: 1, longitude: 2))), "image": Field(.asset(AssetValue(fileChecksum: "c")))]
        for (name, field) in rare {
            let stored = try [name: field].jsonBytes(escapesSlashes: true)
            #expect(stored.withUnsafeBytes { JSONReader.read([String: Field].self, from: $0) } == nil)
        }
    }

    /// A key of each type's own that the reader neither reads nor refuses would be skipped as
    /// unknown: `[[]]` fits no property, so every one must make `JSONDecoder` throw and the reader
    /// step aside — including properties added after the reader was written.
    @Test("every property of the request, its operations, records, zone IDs, pointers, fields and references is read or refused, never skipped")
    func everyPropertyIsReadOrRefused() {
        /// `base` with `key` set to `value` (replacing the key if `base` has it).
        func object(_ base: KeyValuePairs<String, String>, _ key: String, _ value: String) -> String {
            let members = base.filter { $0.key != key }.map { #""\#($0.key)":\#($0.value)"# } + [#""\#(key)":\#(value)"#]
            return "{" + members.joined(separator: ",") + "}"
        }
        let junk = "[[]]"
        var bodies: [(label: String, json: String)] = []
        for label in Mirror(reflecting: ModifyRecordsRequest(operations: [])).children.compactMap(\.label) {
            bodies.append((label, object(["operations": "[]"], label, junk)))
        }
        for label in Mirror(reflecting: RecordOperation(.create, Record())).children.compactMap(\.label) {
            bodies.append((label, #"{"operations":[\#(object(["operationType": #""create""#, "record": "{}"], label, junk))]}"#))
        }
        for label in Mirror(reflecting: Record()).children.compactMap(\.label) {
            bodies.append((label, body(object(["recordType": #""T""#], label, junk))))
        }
        for label in Mirror(reflecting: ZoneID(zoneName: "Z")).children.compactMap(\.label) {
            bodies.append(("zoneID." + label, body(#"{"recordType":"T","zoneID":\#(object(["zoneName": #""Z""#], label, junk))}"#)))
        }
        for label in Mirror(reflecting: RecordPointer(recordName: "p")).children.compactMap(\.label) {
            bodies.append(("parent." + label, body(#"{"recordType":"T","parent":\#(object(["recordName": #""p""#], label, junk))}"#)))
        }
        // `isTypeInferred` is what decoding learned (no `type` key), never a key of its own.
        for label in Mirror(reflecting: Field.string("x")).children.compactMap(\.label) where label != "isTypeInferred" {
            bodies.append(("field." + label, body(#"{"recordType":"T","fields":{"f":\#(object(["type": #""STRING""#, "value": #""x""#], label, junk))}}"#)))
        }
        for label in Mirror(reflecting: Reference(recordName: "p")).children.compactMap(\.label) {
            let reference = object(["recordName": #""p""#], label, junk)
            bodies.append(("reference." + label, body(#"{"recordType":"T","fields":{"r":{"type":"REFERENCE","value":\#(reference)}}}"#)))
        }
        #expect(bodies.count > 35)
        for (label, json) in bodies {
            #expect(foundation(json) == nil, "\(label): JSONDecoder takes \(junk)")
            #expect(fast(json) == nil, "\(label) is skipped by the reader")
        }
    }

    @Test("deep nesting is left to JSONDecoder's limit, never recursed on")
    func deepNesting() {
        let depth = 100_000
        let json = body(#"{"recordType":"T","extra":\#(String(repeating: "[", count: depth))\#(String(repeating: "]", count: depth))}"#)
        expectStepsAside(json)
    }
}
