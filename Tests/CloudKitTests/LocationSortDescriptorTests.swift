import CloudKit
import Foundation
import Testing

/// `CKLocationSortDescriptor` sorts a query's records by the distance of a location field from a
/// point, nearest first, on the server; it archives with secure coding, as Apple's does.
@Suite struct LocationSortDescriptorTests {
    @Test func aQuerySortedByDistanceFromAPointAnswersTheNearestFirst() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Stays")
            _ = try await db.save(CKRecordZone(zoneID: zoneID))
            let stays = [
                ("faro", 37.0194, -7.9322), ("lisbon", 38.7223, -9.1393), ("porto", 41.1579, -8.6291), ("coimbra", 40.2033, -8.4103),
            ]
            for (name, latitude, longitude) in stays {
                let record = CKRecord(recordType: "Stay", recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
                record["spot"] = CLLocation(latitude: latitude, longitude: longitude)
                _ = try await db.save(record)
            }
            let braga = CLLocation(latitude: 41.5454, longitude: -8.4265)

            let query = CKQuery(recordType: "Stay", predicate: NSPredicate(value: true))
            query.sortDescriptors = [CKLocationSortDescriptor(key: "spot", relativeLocation: braga)]
            let nearestFirst = try await db.records(matching: query, inZoneWith: zoneID).matchResults.map { $0.0.recordName }
            #expect(nearestFirst == ["porto", "coimbra", "lisbon", "faro"])

            // From Faro, the other way round.
            let faro = CLLocation(latitude: 37.0194, longitude: -7.9322)
            let fromFaro = CKQuery(recordType: "Stay", predicate: NSPredicate(value: true))
            fromFaro.sortDescriptors = [CKLocationSortDescriptor(key: "spot", relativeLocation: faro)]
            let farthestLast = try await db.records(matching: fromFaro, inZoneWith: zoneID).matchResults.map { $0.0.recordName }
            #expect(farthestLast == ["faro", "lisbon", "coimbra", "porto"])
        }
    }

    @Test func aLocationSortOnASystemFieldIsRefused() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let query = CKQuery(recordType: "Stay", predicate: NSPredicate(value: true))
            query.sortDescriptors = [CKLocationSortDescriptor(key: "creationDate", relativeLocation: CLLocation(latitude: 0, longitude: 0))]
            let refused = try await #require(throws: CKError.self) { try await db.records(matching: query) }
            #expect(refused.code == .invalidArguments)
        }
    }

    @Test func itKeepsItsKeyAndLocationAndArchivesWithSecureCoding() throws {
        let braga = CLLocation(latitude: 41.5454, longitude: -8.4265)
        let descriptor = CKLocationSortDescriptor(key: "spot", relativeLocation: braga)
        #expect(descriptor.key == "spot")
        #expect(descriptor.ascending)
        #expect(descriptor.relativeLocation.coordinate.latitude == 41.5454)
        let query = CKQuery(recordType: "Stay", predicate: NSPredicate(value: true))
        query.sortDescriptors = [descriptor]
        #expect(query.sortDescriptors?.first === descriptor)

        #expect(CKLocationSortDescriptor.supportsSecureCoding)
        let data = try NSKeyedArchiver.archivedData(withRootObject: descriptor, requiringSecureCoding: true)
        let back = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CKLocationSortDescriptor.self, from: data))
        #expect(back.key == "spot")
        #expect(back.relativeLocation.coordinate.latitude == 41.5454)
        #expect(back.relativeLocation.coordinate.longitude == -8.4265)
    }
}
