import CloudKit
import Foundation
import Testing

/// Each `NSPredicate` form CloudKit accepts in a `CKQuery` selects exactly the records it
/// describes; OR, which CloudKit refuses, makes the query throw `invalidArguments`.
@Suite struct QueryPredicateTests {
    @Test func eachPredicateFormSelectsTheRecordsItDescribes() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Places")
            let places = try await seedPlaces(in: db, zoneID: zoneID)
            let all: Set<String> = ["p1", "p2", "p3", "p4", "p5"]
            func names(_ predicate: NSPredicate) async throws -> Set<String> {
                try await matchingNames(predicate, in: db, zoneID: zoneID)
            }

            #expect(try await names(NSPredicate(format: "caption = 'Porto'")) == ["p3"], "=")
            #expect(try await names(NSPredicate(format: "caption == %@", "Faro")) == ["p4"], "== %@")
            #expect(try await names(NSPredicate(format: "caption != %@", "Porto")) == ["p1", "p2", "p4", "p5"], "!=")
            #expect(try await names(NSPredicate(format: "nights < 3")) == ["p1", "p2"], "<")
            #expect(try await names(NSPredicate(format: "nights <= 3")) == ["p1", "p2", "p3"], "<=")
            #expect(try await names(NSPredicate(format: "nights > 3")) == ["p4", "p5"], ">")
            #expect(try await names(NSPredicate(format: "nights >= 3")) == ["p3", "p4", "p5"], ">=")
            #expect(try await names(NSPredicate(format: "rating > %@", NSNumber(value: 4.0))) == ["p1", "p3"], "> on a DOUBLE field")
            #expect(try await names(NSPredicate(format: "caption BEGINSWITH %@", "Lisbon")) == ["p1", "p2"], "BEGINSWITH")
            #expect(try await names(NSPredicate(format: "caption IN %@", ["Porto", "Braga", "Nowhere"])) == ["p3", "p5"], "IN %@ with an array")
            #expect(try await names(NSPredicate(format: "%K == %@", "caption", "Braga")) == ["p5"], "%K")
            #expect(try await names(NSPredicate(format: "nights == %d", 4)) == ["p4"], "%d")
            #expect(try await names(NSPredicate(format: "tags CONTAINS %@", "tram")) == ["p1", "p2"], "CONTAINS on a list field")
            #expect(try await names(NSPredicate(format: "nights > 1 AND nights < 5")) == ["p2", "p3", "p4"], "AND")
            #expect(
                try await names(NSPredicate(format: "caption BEGINSWITH %@ AND tags CONTAINS %@", "Lisbon", "castle")) == ["p1"],
                "AND of two kinds of comparison"
            )
            #expect(try await names(NSPredicate(format: "TRUEPREDICATE")) == all, "TRUEPREDICATE")
            #expect(try await names(NSPredicate(value: true)) == all, "NSPredicate(value: true)")

            let lisbon = CLLocation(latitude: 38.7223, longitude: -9.1393)
            #expect(
                try await names(NSPredicate(format: "distanceToLocation:fromLocation:(spot, %@) < 5", lisbon)) == ["p1", "p2"],
                "distanceToLocation:fromLocation: < 5 km"
            )
            #expect(
                try await names(NSPredicate(format: "distanceToLocation:fromLocation:(spot, %@) < 300", lisbon)) == ["p1", "p2", "p3", "p4"],
                "the radius is in kilometres (Porto ~274 km, Faro ~217 km, Braga ~320 km)"
            )

            let porto = CKRecord.ID(recordName: "p3", zoneID: zoneID)
            #expect(try await names(NSPredicate(format: "recordID == %@", porto)) == ["p3"], "recordID == CKRecord.ID")
            #expect(
                try await names(NSPredicate(format: "recordID == %@", CKRecord.Reference(recordID: porto, action: .none))) == ["p3"],
                "recordID == CKRecord.Reference"
            )

            let newest = try #require(places.compactMap(\.creationDate).max())
            #expect(try await names(NSPredicate(format: "creationDate > %@", Date(timeIntervalSince1970: 946_684_800))) == all, "creationDate > 2000")
            #expect(try await names(NSPredicate(format: "creationDate > %@", newest)).isEmpty, "creationDate > the newest record's")
        }
    }

    @Test func anOrPredicateMakesTheQueryThrowInvalidArguments() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Places")
            _ = try await seedPlaces(in: db, zoneID: zoneID)
            let query = CKQuery(recordType: "Place", predicate: NSPredicate(format: "a = 1 OR b = 2"))
            let error = try await #require(throws: CKError.self) { try await db.records(matching: query, inZoneWith: zoneID) }
            #expect(error.code == .invalidArguments)

            let compound = NSCompoundPredicate(orPredicateWithSubpredicates: [
                NSPredicate(format: "nights = 1"), NSPredicate(format: "nights = 2"),
            ])
            let compoundError = try await #require(throws: CKError.self) {
                try await db.records(matching: CKQuery(recordType: "Place", predicate: compound), inZoneWith: zoneID)
            }
            #expect(compoundError.code == .invalidArguments)
        }
    }
}

/// Five places in `zoneID`, saved one request each (so their creation dates ascend):
///
/// | name | caption | nights | rating | tags | spot |
/// |---|---|---|---|---|---|
/// | p1 | Lisbon | 1 | 4.5 | tram, castle | Lisbon centre |
/// | p2 | Lisbon Alvalade | 2 | 3.5 | tram | ~1.7 km from it |
/// | p3 | Porto | 3 | 4.8 | wine, bridge | ~274 km |
/// | p4 | Faro | 4 | 3.9 | beach | ~217 km |
/// | p5 | Braga | 5 | 2.0 | church | ~320 km |
func seedPlaces(in db: CKDatabase, zoneID: CKRecordZone.ID) async throws -> [CKRecord] {
    _ = try await db.save(CKRecordZone(zoneID: zoneID))
    let rows: [(String, Int, Double, [String], Double, Double)] = [
        ("Lisbon", 1, 4.5, ["tram", "castle"], 38.7223, -9.1393),
        ("Lisbon Alvalade", 2, 3.5, ["tram"], 38.7369, -9.1427),
        ("Porto", 3, 4.8, ["wine", "bridge"], 41.1579, -8.6291),
        ("Faro", 4, 3.9, ["beach"], 37.0194, -7.9322),
        ("Braga", 5, 2.0, ["church"], 41.5454, -8.4265),
    ]
    var saved: [CKRecord] = []
    for (index, row) in rows.enumerated() {
        let record = CKRecord(recordType: "Place", recordID: CKRecord.ID(recordName: "p\(index + 1)", zoneID: zoneID))
        record["caption"] = row.0
        record["nights"] = row.1
        record["rating"] = row.2
        record["tags"] = row.3
        record["spot"] = CLLocation(latitude: row.4, longitude: row.5)
        saved.append(try await db.save(record))
    }
    return saved
}

/// The names of every `Place` in `zoneID` matching `predicate`, following cursors to the end.
private func matchingNames(_ predicate: NSPredicate, in db: CKDatabase, zoneID: CKRecordZone.ID) async throws -> Set<String> {
    var page = try await db.records(matching: CKQuery(recordType: "Place", predicate: predicate), inZoneWith: zoneID)
    var names = Set(try page.matchResults.map { try $0.1.get().recordID.recordName })
    while let cursor = page.queryCursor {
        page = try await db.records(continuingMatchFrom: cursor)
        names.formUnion(try page.matchResults.map { try $0.1.get().recordID.recordName })
    }
    return names
}
