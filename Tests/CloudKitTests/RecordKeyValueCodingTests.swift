import CloudKit
import Foundation
import Testing

/// Key-value coding on a record reads and writes its fields, as Apple's `CKRecord` does:
/// `value(forKey:)` is the field (`nil` for none), `setValue(_:forKey:)` sets it and `nil` clears it.
@Suite struct RecordKeyValueCodingTests {
    @Test func valueForKeyReadsAFieldAndSetValueWritesIt() {
        let trip = CKRecord(recordType: "Trip")
        trip.setValue("Lisbon", forKey: "title")
        trip.setValue(4, forKey: "nights")
        trip.setValue(["tram", "castle"], forKey: "tags")

        #expect(trip.value(forKey: "title") as? String == "Lisbon")
        #expect(trip.value(forKey: "nights") as? Int == 4)
        #expect(trip.value(forKey: "tags") as? [String] == ["tram", "castle"])
        #expect(trip["title"] as? String == "Lisbon", "the same field the subscript reads")
        #expect(trip.value(forKey: "rating") == nil, "no such field")
        #expect(trip.changedKeys() == ["nights", "tags", "title"])
    }

    @Test func settingNilClearsTheField() {
        let trip = CKRecord(recordType: "Trip")
        trip["title"] = "Porto"
        trip.setValue(nil, forKey: "title")
        #expect(trip.value(forKey: "title") == nil)
        #expect(trip.allKeys().isEmpty)
    }

    @Test func aFieldSetThroughTheSubscriptReadsThroughKeyValueCoding() {
        let trip = CKRecord(recordType: "Trip")
        let when = Date(timeIntervalSince1970: 1_700_000_000)
        trip["departure"] = when
        trip.encryptedValues["note"] = "secret"
        #expect(trip.value(forKey: "departure") as? Date == when)
        #expect(trip.value(forKey: "note") as? String == "secret")
    }
}
