import CloudKit
import CoreLocation
import Testing

/// A file that says only `import CloudKit` (and `import CoreLocation` for its locations), as
/// app files do, uses Foundation and CoreLocation's types: this file imports nothing else.
@Suite struct ImportCloudKitAloneTests {
    @Test func foundationComesWithCloudKit() throws {
        let defaults = UserDefaults.standard
        defaults.set(true, forKey: "import-cloudkit-\(UUID().uuidString)")
        let encoded = try JSONEncoder().encode(["at": Date(timeIntervalSince1970: 0)])
        let query = CKQuery(recordType: "Contact", predicate: NSPredicate(format: "name BEGINSWITH %@", "M"))
        let url = URL(fileURLWithPath: "/tmp")
        #expect(!encoded.isEmpty && query.recordType == "Contact" && url.isFileURL)
    }

    @Test func coreLocationsLocationIsTheOneRecordsHold() throws {
        let here: CLLocation = CLLocation(latitude: 38.7223, longitude: -9.1393)
        let degrees: CLLocationDegrees = here.coordinate.latitude
        let record = CKRecord(recordType: "Place")
        record["spot"] = here
        #expect((record["spot"] as? CLLocation)?.coordinate.latitude == degrees)
        let data = try NSKeyedArchiver.archivedData(withRootObject: here, requiringSecureCoding: true)
        let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: CLLocation.self, from: data)
        #expect(back == here)
    }

    @Test func numbersAndBooleansAreNSNumbersAtOnce() {
        let record = CKRecord(recordType: "Contact")
        record["flag"] = true
        record["count"] = 26
        record["ratio"] = 0.5
        record.encryptedValues["visits"] = 3
        #expect(record["flag"] as? Int64 == 1 && record["flag"] as? Bool == true)
        #expect(record["count"] as? Int64 == 26 && record["count"] as? Double == 26 && record["count"] as? NSNumber == NSNumber(value: 26))
        #expect(record["ratio"] as? Double == 0.5)
        #expect(record.encryptedValues["visits"] as? Int == 3)
        let visits: Int? = record.encryptedValues["visits"]
        #expect(visits == 3 && record.encryptedValues["visits"] != 4)
    }

    @Test func recordsIterateAndNameTheirSystemFields() {
        let record = CKRecord(recordType: "Contact")
        record["name"] = "Ana"
        record.setObject("Lisbon" as NSString, forKey: "city")
        var seen: [String: String] = [:]
        for (key, value) in record { seen[key] = value as? String }
        #expect(seen == ["name": "Ana", "city": "Lisbon"])
        #expect(CKRecord.SystemFieldKey.creationDate == "___createTime" && CKRecord.SystemFieldKey.parent == "___parent")
        #expect(CKError.Code.participantAlreadyInvited.rawValue == 37)
    }
}
