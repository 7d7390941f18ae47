import CloudKit
import Testing

/// Archives Apple's CloudKit wrote decode as they do on Apple platforms, through the app's own
/// `NSKeyedUnarchiver` calls (the class names are registered when the program loads), and
/// archives written here decode as theirs. The fixtures are archives Apple's framework wrote
/// (from open-source projects' test fixtures; names and addresses replaced).
@Suite struct ArchiveCompatibilityTests {
    static func fixture(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "archive", subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    @Test func aServerChangeTokenArchivedByAppleDecodes() throws {
        let token = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKServerChangeToken.self, from: Self.fixture("server-change-token"))
        #expect(token != nil)
    }

    @Test func aQueryCursorArchivedByAppleDecodesWithItsZone() throws {
        let cursor = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKQueryOperation.Cursor.self, from: Self.fixture("query-cursor")))
        let archived = try NSKeyedArchiver.archivedData(withRootObject: cursor, requiringSecureCoding: true)
        #expect(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKQueryOperation.Cursor.self, from: archived) != nil)
    }

    @Test func systemFieldsArchivedByAppleDecodeIntoARecord() throws {
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: Self.fixture("record-system-fields"))
        unarchiver.requiresSecureCoding = true
        let record = try #require(CKRecord(coder: unarchiver))
        #expect(record.recordType == "ActivitySegment")
        #expect(record.recordID.recordName == "766767600.0")
        #expect(record.recordID.zoneID == CKRecordZone.ID(zoneName: "9C1BCF02-8C65-4B05-B613-DB2881592AAE_Weekly"))
        #expect(record.recordChangeTag == "m9ws656p")
        #expect(record.creationDate != nil && record.modificationDate != nil)
        #expect(record.creatorUserRecordID?.recordName == CKCurrentUserDefaultName)
        #expect(record.allKeys().isEmpty)
    }

    @Test func aShareParticipantArchivedByAppleDecodes() throws {
        let participant = try #require(
            try NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.Participant.self, from: Self.fixture("share-participant"))
        )
        #expect(participant.userIdentity.userRecordID?.recordName == "_2b7e26881cff67a963691b4d57c73efe")
    }

    @Test func aShareArchivedByAppleDecodesWithItsParticipants() throws {
        let share = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKShare.self, from: Self.fixture("share")))
        #expect(share.recordType == CKRecord.SystemType.share)
        #expect(share.recordChangeTag == "46")
        #expect(share.participants.count == 2)
        #expect(share.owner.role == .owner)
        #expect(share.owner.userIdentity.nameComponents?.givenName == "Ana")
        #expect(share.owner.userIdentity.lookupInfo?.emailAddress == "ana@example.com")
        #expect(share.currentUserParticipant?.role == .privateUser)
        #expect(share.currentUserParticipant?.permission == .readWrite)
        #expect(share.currentUserParticipant?.acceptanceStatus == .accepted)
    }

    @Test func aRecordArchivedHereKeepsItsValuesEditsAndExactDates() throws {
        let zoneID = CKRecordZone.ID(zoneName: "Archive")
        let record = CKRecord(recordType: "Contact", recordID: CKRecord.ID(recordName: "ana", zoneID: zoneID))
        let seen = Date(timeIntervalSinceReferenceDate: 786_000_000.123_456_7)
        record["name"] = "Ana"
        record["visits"] = 3
        record["seen"] = seen
        record["tags"] = ["a", "b"]
        record["friend"] = CKRecord.Reference(recordID: CKRecord.ID(recordName: "bruno", zoneID: zoneID), action: .none)
        record["home"] = CLLocation(latitude: 38.7, longitude: -9.1)
        record.encryptedValues["secret"] = "s"
        let data = try NSKeyedArchiver.archivedData(withRootObject: record, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.self, from: data))
        #expect(back.recordID == record.recordID && back.recordType == "Contact")
        #expect(back["name"] as? String == "Ana")
        #expect(back["visits"] as? Int64 == 3)
        #expect(back["seen"] as? Date == seen)
        #expect(back["tags"] as? [String] == ["a", "b"])
        #expect((back["friend"] as? CKRecord.Reference)?.recordID.recordName == "bruno")
        #expect((back["home"] as? CLLocation)?.coordinate.latitude == 38.7)
        #expect(back.encryptedValues["secret"] as? String == "s")
        #expect(Set(back.changedKeys()) == ["name", "visits", "seen", "tags", "friend", "home", "secret"])
    }

    @Test func identifiersAndZonesRoundTripUnderAppleKeys() throws {
        let zoneID = CKRecordZone.ID(zoneName: "Z", ownerName: "_owner")
        let data = try NSKeyedArchiver.archivedData(withRootObject: CKRecord.ID(recordName: "r", zoneID: zoneID), requiringSecureCoding: true)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("RecordName") && text.contains("ZoneName") && text.contains("ownerName"))
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: CKRecord.ID.self, from: data)
        #expect(back == CKRecord.ID(recordName: "r", zoneID: zoneID))
        let zone = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: CKRecordZone.self, from: NSKeyedArchiver.archivedData(withRootObject: CKRecordZone(zoneID: zoneID), requiringSecureCoding: true)
        )
        #expect(zone?.zoneID == zoneID && zone?.capabilities.contains(.fetchChanges) == true)
    }

    @Test func aQueryWhosePredicateCloudKitRefusesRestoresRefusedNotMatchingAll() async throws {
        let refused = CKQuery(recordType: "Contact", predicate: NSPredicate(format: "name == %@ OR name == %@", "a", "b"))
        let data = try NSKeyedArchiver.archivedData(withRootObject: refused, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKQuery.self, from: data))
        let connection = StratusConnection(serverURL: URL(fileURLWithPath: "/nowhere"), apiToken: "none", webAuthToken: nil)
        let db = CKContainer(identifier: "iCloud.com.example.Offline", connection: connection).privateCloudDatabase
        let error = await #expect(throws: CKError.self) { _ = try await db.records(matching: restored) }
        #expect(error?.code == .invalidArguments)
    }

    @Test func archivesStratusWroteBeforeAppleKeysStillDecode() throws {
        // A record and a token as Stratus archived them before it wrote Apple's keys.
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        archiver.encode("Contact" as NSString, forKey: "recordType")
        archiver.encode(CKRecord.ID(recordName: "ana"), forKey: "recordID")
        archiver.encode("tag-1" as NSString, forKey: "recordChangeTag")
        archiver.encode(1_700_000_000.0, forKey: "creationDate")
        archiver.encode(Data(#"{"name":{"type":"STRING","value":"Ana"},"visits":{"type":"INT64","value":3}}"#.utf8) as NSData, forKey: "fields")
        archiver.encode(["visits" as NSString] as NSArray, forKey: "changedKeys")
        let unarchiver = try NSKeyedUnarchiver(forReadingFrom: archiver.encodedData)
        unarchiver.requiresSecureCoding = true
        let record = try #require(CKRecord(coder: unarchiver))
        #expect(record.recordType == "Contact" && record.recordID.recordName == "ana" && record.recordChangeTag == "tag-1")
        #expect(record.creationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(record["name"] as? String == "Ana" && record["visits"] as? Int64 == 3)
        #expect(record.changedKeys() == ["visits"])

        let token = NSKeyedArchiver(requiringSecureCoding: true)
        token.encode("opaque-token" as NSString, forKey: "value")
        let tokenReader = try NSKeyedUnarchiver(forReadingFrom: token.encodedData)
        tokenReader.requiresSecureCoding = true
        #expect(CKServerChangeToken(coder: tokenReader) != nil)
    }
}
