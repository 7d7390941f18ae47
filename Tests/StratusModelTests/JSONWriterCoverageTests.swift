import Foundation
import StratusModel
import Testing

/// The writer's guard, as the reader has its own: each wire type `JSONWriter` writes is filled in
/// every property — which reflection checks, so a property added later without a value here fails
/// — and must come out as `JSONEncoder` writes it. A property the writer forgot would be missing
/// from its JSON, and the two would differ.
@Suite("JSONWriter writes every property of every wire type")
struct JSONWriterCoverageTests {
    static let zone = ZoneID(zoneName: "Bench", ownerRecordName: "_o")
    static let pointer = RecordPointer(recordName: "root", recordChangeTag: "t", zoneID: zone)
    static let stamp = RecordStamp(timestamp: 2, userRecordName: "_u", deviceID: "d")
    static let reference = Reference(recordName: "p", zoneID: zone, action: .deleteSelf)
    static let asset = AssetValue(
        fileChecksum: "c", size: 3, referenceChecksum: "rc", wrappingKey: "wk", receipt: "re", downloadURL: "https://a/b/${f}"
    )
    static let location: Location = {
        var location = Location(latitude: 1.5, longitude: -2.25)
        location.horizontalAccuracy = 3
        location.verticalAccuracy = 4
        location.altitude = 5
        location.speed = 6
        location.course = 7
        location.timestamp = 8
        return location
    }()

    static let participant = ShareParticipant(
        participantId: "p1", userIdentity: UserIdentity(userRecordName: "_u", lookupInfo: LookupInfo(emailAddress: "a@b.c")),
        type: .user, permission: .readWrite, acceptanceStatus: .accepted
    )

    /// A timestamp with its exact date (the `exactDates` extension): the one field kind with
    /// every property set.
    static let timestamp: Field = {
        var field = Field.timestamp(milliseconds: 5)
        field.exactDates = [-978_307_199.995]
        return field
    }()

    static let record: Record = {
        var record = Record(recordName: "r/1", recordType: "Destination", recordChangeTag: "k9", fields: [
            "caption": .string("Paris"), "n": .int64(7), "d": .double(2.5), "t": timestamp, "b": .bytes(Data([0, 255])),
            "place": Field(.location(location)), "link": Field(.reference(reference)), "photo": Field(.asset(asset)),
            "tags": Field(.list([.string("a"), .string("b")])),
        ])
        record.pluginFields = ["plugin": .string("x")]
        record.created = stamp
        record.modified = stamp
        record.deleted = false
        record.parent = pointer
        record.share = pointer
        record.shortGUID = "abc"
        record.createShortGUID = true
        record.zoneID = zone
        record.forRecord = pointer
        record.publicPermission = .readOnly
        record.participants = [participant]
        record.owner = participant
        record.currentUserParticipant = participant
        record.url = "https://example.com/share/abc"
        record.clearedFields = ["mood", "title"]
        record.clearsParent = true
        return record
    }()

    /// The labels of `value`'s optional properties left `nil`.
    private func unset(_ value: Any) -> [String] {
        Mirror(reflecting: value).children.compactMap { child in
            let inner = Mirror(reflecting: child.value)
            guard inner.displayStyle == .optional, inner.children.isEmpty else { return nil }
            return child.label
        }
    }

    private func canonical(_ bytes: some Sequence<UInt8>) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }

    /// `value` has every property set (`filled`), and the writer writes it as `JSONEncoder` does,
    /// the Stratus extensions asked for.
    private func expectFilledAndSame(_ value: some JSONWritable, filled: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if filled {
            #expect(unset(value).isEmpty, "\(type(of: value)) leaves \(unset(value)) unset here: give them values", sourceLocation: sourceLocation)
        }
        let written = try value.jsonBytes(extensions: .exactDates)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        encoder.userInfo[.wireExtensions] = WireExtensions.exactDates
        #expect(try canonical(written) == canonical(encoder.encode(value)), "\(String(decoding: written, as: UTF8.self))", sourceLocation: sourceLocation)
    }

    @Test func everyPropertyOfTheRecordTypesIsWritten() throws {
        try expectFilledAndSame(Self.zone)
        try expectFilledAndSame(Self.pointer)
        try expectFilledAndSame(Self.stamp)
        try expectFilledAndSame(Self.reference)
        try expectFilledAndSame(Self.asset)
        try expectFilledAndSame(Self.location)
        try expectFilledAndSame(Self.record)
        try expectFilledAndSame(Self.timestamp)
        // Only a timestamp carries exact dates: the other kinds leave them unset.
        for field in (Self.record.fields ?? [:]).values { try expectFilledAndSame(field, filled: field.type == .timestamp) }
    }

    @Test func everyPropertyOfTheResponsesIsWritten() throws {
        var page = ZoneChangesPage(zoneID: Self.zone, records: [Self.record], syncToken: "t/1", moreComing: true)
        page.clientChangeToken = "ZWRpdC8x"
        try expectFilledAndSame(page)
        try expectFilledAndSame(RecordChangesResponse(records: [Self.record], syncToken: "t", moreComing: false))
        try expectFilledAndSame(QueryRecordsResponse(records: [.success(Self.record)], continuationMarker: "m/1"))
        try expectFilledAndSame(PushNotification(
            notificationID: "41", notificationType: .query, subscriptionID: "s/1", containerIdentifier: "iCloud.com.example",
            environment: .development, databaseScope: .private, zoneID: Self.zone, isPruned: false, recordName: "r/1",
            queryNotificationReason: .recordUpdated, notificationInfo: NotificationInfo(alertBody: "Paris", soundName: "a.caf", shouldBadge: true),
            timestamp: 1_767_225_600_000, recordFields: ["caption": .string("Paris"), "link": Field(.reference(Self.reference))],
            subscriptionOwnerUserRecordName: "_o"
        ))
    }
}
