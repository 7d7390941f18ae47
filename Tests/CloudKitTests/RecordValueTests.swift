import CloudKit
import Foundation
import Testing

/// Field values come back from the server as the Swift types the app saved: strings, numbers,
/// booleans (stored as the number 1), dates, data, lists, references and locations.
@Suite struct RecordValueTests {
    @Test func typedValuesRoundTripAsTheSwiftTypesSaved() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Values")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let tripID = CKRecord.ID(recordName: "portugal", zoneID: zoneID)
            let trip = CKRecord(recordType: "Trip", recordID: tripID)
            trip["title"] = "Portugal"
            _ = try await db.save(trip)

            let visited = Date(timeIntervalSince1970: 1_767_225_600)
            let recordID = CKRecord.ID(recordName: "lisbon", zoneID: zoneID)
            let record = CKRecord(recordType: "Destination", recordID: recordID)
            record["caption"] = "Lisboa — São Jorge"
            record["nights"] = 4
            record["rating"] = 4.5
            record["favourite"] = true
            record["visited"] = visited
            record["raw"] = Data([0, 1, 2, 254, 255])
            record["tags"] = ["tram", "castle"]
            record["counts"] = [3, 1, 2]
            record["trip"] = CKRecord.Reference(recordID: tripID, action: .deleteSelf)
            record["spot"] = CLLocation(latitude: 38.7223, longitude: -9.1393)
            _ = try await db.save(record)

            let back = try await db.record(for: recordID)
            #expect(back.recordType == "Destination")
            #expect(back["caption"] as? String == "Lisboa — São Jorge")
            #expect(back["nights"] as? Int == 4)
            #expect(back["rating"] as? Double == 4.5)
            // CloudKit stores a Bool as the number 1; it reads back as an NSNumber that casts to Bool.
            #expect(back["favourite"] as? Bool == true)
            #expect((back["favourite"] as? NSNumber)?.intValue == 1)
            #expect(back["visited"] as? Date == visited)
            #expect(back["raw"] as? Data == Data([0, 1, 2, 254, 255]))
            #expect(back["tags"] as? [String] == ["tram", "castle"])
            #expect(back["counts"] as? [Int] == [3, 1, 2])

            let reference = try #require(back["trip"] as? CKRecord.Reference)
            #expect(reference.recordID == tripID)
            #expect(reference.action == .deleteSelf)

            let spot = try #require(back["spot"] as? CLLocation)
            #expect(abs(spot.coordinate.latitude - 38.7223) < 1e-9)
            #expect(abs(spot.coordinate.longitude - -9.1393) < 1e-9)
        }
    }

    @Test func aDeleteSelfReferenceDeletesItsRecordWithItsTarget() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Values")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let tripID = CKRecord.ID(recordName: "portugal", zoneID: zoneID)
            let trip = CKRecord(recordType: "Trip", recordID: tripID)
            trip["title"] = "Portugal"
            let day = CKRecord(recordType: "Day", recordID: CKRecord.ID(recordName: "day-1", zoneID: zoneID))
            day["trip"] = CKRecord.Reference(recordID: tripID, action: .deleteSelf)
            let keeper = CKRecord(recordType: "Day", recordID: CKRecord.ID(recordName: "day-2", zoneID: zoneID))
            keeper["trip"] = CKRecord.Reference(recordID: tripID, action: .none)
            let (saves, _) = try await db.modifyRecords(saving: [trip, day, keeper], deleting: [])
            for result in saves.values { _ = try result.get() }

            try await db.deleteRecord(withID: tripID)

            let error = try await #require(throws: CKError.self) { try await db.record(for: day.recordID) }
            #expect(error.code == .unknownItem, "a .deleteSelf reference's record goes with its target")
            let kept = try await db.record(for: keeper.recordID)
            #expect((kept["trip"] as? CKRecord.Reference)?.recordID == tripID, "a .none reference's record stays")
        }
    }
}
