import Foundation
import StratusModel
import Testing

/// `JSONWriter` must write the JSON `JSONEncoder` writes for the same value: clients and stored
/// rows cannot tell which one wrote it.
@Suite("JSONWriter writes what JSONEncoder writes")
struct JSONWriterTests {
    /// Every byte below 0x30, DEL, a line separator, accents, an emoji, quotes, backslashes and slashes.
    static let awkwardText = String((0..<0x30).map { Character(UnicodeScalar(UInt8($0))) }) + "\u{7f}\u{2028}é😀\\\"/</"

    private func encoder(numbersAsStrings: Bool, escapesSlashes: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        if !escapesSlashes { encoder.outputFormatting = .withoutEscapingSlashes }
        if numbersAsStrings { encoder.userInfo[.numbersAsStrings] = true }
        return encoder
    }

    /// Both JSON texts as one canonical form (parsed, keys sorted): key order is the only freedom
    /// `JSONEncoder` has (on Linux it follows a dictionary's hash order).
    private func canonical(_ bytes: some Sequence<UInt8>) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }

    private func expectSameJSON(_ value: some JSONWritable) throws {
        for numbersAsStrings in [false, true] {
            for escapesSlashes in [false, true] {
                let written = try value.jsonBytes(numbersAsStrings: numbersAsStrings, escapesSlashes: escapesSlashes)
                let encoded = try encoder(numbersAsStrings: numbersAsStrings, escapesSlashes: escapesSlashes).encode(value)
                #expect(try canonical(written) == canonical(encoded), "\(String(decoding: written, as: UTF8.self))")
                #expect(written.count == encoded.count, "same escapes, same number spellings")
            }
        }
    }

    @Test("strings are escaped byte for byte as JSONEncoder escapes them")
    func strings() throws {
        for escapesSlashes in [false, true] {
            for text in [Self.awkwardText, "", "plain", "a/b", "\u{0}", "😀/😀"] {
                var writer = JSONWriter(escapesSlashes: escapesSlashes)
                writer.beginArray()
                writer.member(nil)
                writer.string(text)
                writer.endArray()
                let encoded = try encoder(numbersAsStrings: false, escapesSlashes: escapesSlashes).encode([text])
                #expect(writer.bytes == Array(encoded), "\(text.debugDescription)")
            }
        }
    }

    @Test("numbers are spelled byte for byte as JSONEncoder spells them")
    func numbers() throws {
        let doubles: [Double] = [1, 1.5, -0.0, 0, 1e20, 1e21, 1e-7, 123_456_789_012_345_680, 0.1, .pi, 1e300, .leastNonzeroMagnitude, 12345.678, 1e16, 1e15, -2.5]
        var writer = JSONWriter()
        writer.beginArray()
        for number in doubles {
            writer.member(nil)
            try writer.double(number)
        }
        writer.endArray()
        #expect(writer.bytes == Array(try JSONEncoder().encode(doubles)))

        let integers: [Int64] = [0, -1, .max, .min, 1_767_225_600_000]
        var integerWriter = JSONWriter()
        integerWriter.beginArray()
        for number in integers {
            integerWriter.member(nil)
            integerWriter.integer(number)
        }
        integerWriter.endArray()
        #expect(integerWriter.bytes == Array(try JSONEncoder().encode(integers)))

        var infinite = JSONWriter()
        #expect(throws: EncodingError.self) { try infinite.double(.infinity) }
    }

    @Test("every kind of field value, alone and in lists")
    func fieldValues() throws {
        var location = Location(latitude: 48.8566, longitude: 2.3522)
        location.altitude = 35
        location.timestamp = 1_700_000_000_000
        let fields: [String: Field] = [
            "text": .string(Self.awkwardText),
            "count": .int64(-42),
            "ratio": .double(0.1),
            "whole": .double(3),
            "when": .timestamp(milliseconds: 1_767_225_600_000),
            "data": .bytes(Data(repeating: 0xAB, count: 96)),
            "place": Field(.location(location)),
            "parent": Field(.reference(Reference(recordName: "p/1", zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_u"), action: .deleteSelf))),
            "bare": Field(.reference(Reference(recordName: "p2", action: nil))),
            "image": Field(.asset(AssetValue(fileChecksum: "c", size: 12, receipt: "r", downloadURL: "https://h/a/${f}"))),
            "names": Field(.list([.string("a"), .string("b/c")]), type: .stringList),
            "scores": Field(.list([.double(1), .double(2.5)]), type: .doubleList),
            "empty": Field(.list([]), type: .int64List),
        ]
        try expectSameJSON(fields)
        try expectSameJSON([String: Field]())
    }

    @Test("records as responses carry them: saved, tombstones, shares and errors")
    func recordsResponses() throws {
        var saved = Record(recordName: "r/1", recordType: "Destination", recordChangeTag: "k9", fields: ["caption": .string("Paris")])
        saved.pluginFields = [:]
        saved.created = RecordStamp(timestamp: 1, userRecordName: "_u", deviceID: "d")
        saved.modified = RecordStamp(timestamp: 2, userRecordName: "_u")
        saved.deleted = false
        saved.zoneID = ZoneID(zoneName: "Bench")
        saved.parent = RecordPointer(recordName: "root")
        saved.share = RecordPointer(recordName: "share", zoneID: ZoneID(zoneName: "Bench", ownerRecordName: "_o"))
        saved.shortGUID = "abc"
        var share = Record(recordName: "share", recordType: ShareNames.recordType, fields: [:])
        share.publicPermission = .readOnly
        share.participants = [.invite(email: "a@b.c", permission: .readWrite)]
        share.owner = ShareParticipant(participantId: "o", type: .owner, permission: .readWrite, acceptanceStatus: .accepted)
        share.url = "https://example.com/share/abc"
        share.forRecord = RecordPointer(recordName: "root", recordChangeTag: "t")
        share.createShortGUID = true
        let failure = RecordError(recordName: "x", serverErrorCode: .conflict, reason: "changed \"meanwhile\"", uuid: "u", serverRecord: saved)
        try expectSameJSON(RecordsResponse(records: [
            .success(saved), .success(.tombstone(recordName: "gone", zoneID: ZoneID(zoneName: "Bench"))), .success(share), .failure(failure),
        ]))
        try expectSameJSON(RecordsResponse(records: []))
        try expectSameJSON(QueryRecordsResponse(records: [.success(saved), .failure(failure)], continuationMarker: "m/1"))
        try expectSameJSON(QueryRecordsResponse(records: [], continuationMarker: nil))
        let page = ZoneChangesPage(zoneID: ZoneID(zoneName: "Bench", ownerRecordName: "_u"), records: [saved, share], syncToken: "t/1", moreComing: true)
        let zoneError = ZoneError(zoneID: ZoneID(zoneName: "Gone"), serverErrorCode: .zoneNotFound, reason: "no zone", uuid: "u")
        try expectSameJSON(ZoneChangesResponse(zones: [.success(page), .failure(zoneError)]))
        try expectSameJSON(RecordChangesResponse(records: [saved], syncToken: "t", moreComing: false))
    }

    @Test("notifications, as stored and as feeds answer them")
    func notifications() throws {
        try expectSameJSON(PushNotification(
            notificationID: "41", notificationType: .query, subscriptionID: "s/1", containerIdentifier: "iCloud.com.example",
            environment: .development, databaseScope: .private, zoneID: ZoneID(zoneName: "Z", ownerRecordName: "_o"), isPruned: false,
            recordName: "r/1", queryNotificationReason: .recordUpdated,
            notificationInfo: NotificationInfo(alertBody: "Paris \"now\"", soundName: "a.caf", shouldBadge: true), timestamp: 1_767_225_600_000,
            recordFields: ["caption": .string("Paris/Lisbon"), "nights": .int64(4), "when": .timestamp(milliseconds: 1_767_225_600_000)],
            subscriptionOwnerUserRecordName: "_o"
        ))
        try expectSameJSON(PushNotification(
            notificationID: "1", notificationType: .database, subscriptionID: nil, containerIdentifier: "c", databaseScope: .shared, isPruned: true
        ))
    }

    @Test("stored fields keep the bytes JSONEncoder stored, escaped slashes and all")
    func storedFields() throws {
        let fields: [String: Field] = ["url": .string("https://a/b")]
        let written = String(decoding: try fields.jsonBytes(escapesSlashes: true), as: UTF8.self)
        #expect(written.contains(#""https:\/\/a\/b""#))
        #expect(written.count == String(decoding: try JSONEncoder().encode(fields), as: UTF8.self).count)
    }
}
