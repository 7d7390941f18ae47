import CloudKit
import Foundation
import Testing

/// A query's results come in pages of `resultsLimit`, each but the last with a cursor that
/// continues where it ended, in the order the sort descriptors ask for (a field, or a system
/// field such as `creationDate`).
@Suite struct QueryPagingAndSortingTests {
    @Test func resultsLimitTwoPagesFiveRecordsWithCursors() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Places")
            _ = try await seedPlaces(in: db, zoneID: zoneID)
            let query = CKQuery(recordType: "Place", predicate: NSPredicate(value: true))
            query.sortDescriptors = [NSSortDescriptor(key: "nights", ascending: true)]

            let first = try await db.records(matching: query, inZoneWith: zoneID, desiredKeys: nil, resultsLimit: 2)
            #expect(try first.matchResults.map { try $0.1.get().recordID.recordName } == ["p1", "p2"])
            let firstCursor = try #require(first.queryCursor, "two of five records leave a cursor")

            let second = try await db.records(continuingMatchFrom: firstCursor, desiredKeys: nil, resultsLimit: 2)
            #expect(try second.matchResults.map { try $0.1.get().recordID.recordName } == ["p3", "p4"])
            let secondCursor = try #require(second.queryCursor)

            let third = try await db.records(continuingMatchFrom: secondCursor, desiredKeys: nil, resultsLimit: 2)
            #expect(try third.matchResults.map { try $0.1.get().recordID.recordName } == ["p5"])
            #expect(third.queryCursor == nil, "the last page has no cursor")
        }
    }

    @Test func aSortDescriptorOnAFieldOrdersTheResults() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Places")
            _ = try await seedPlaces(in: db, zoneID: zoneID)

            let byNightsDescending = try await sorted(by: "nights", ascending: false, in: db, zoneID: zoneID)
            #expect(byNightsDescending.compactMap { $0["nights"] as? Int } == [5, 4, 3, 2, 1])
            let byCaption = try await sorted(by: "caption", ascending: true, in: db, zoneID: zoneID)
            #expect(byCaption.compactMap { $0["caption"] as? String } == ["Braga", "Faro", "Lisbon", "Lisbon Alvalade", "Porto"])
            let byRatingDescending = try await sorted(by: "rating", ascending: false, in: db, zoneID: zoneID)
            #expect(byRatingDescending.map(\.recordID.recordName) == ["p3", "p1", "p4", "p2", "p5"])
        }
    }

    @Test func aSortDescriptorOnCreationDateOrdersTheResults() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let zoneID = CKRecordZone.ID(zoneName: "Places")
            let seeded = try await seedPlaces(in: db, zoneID: zoneID)
            // Saved one request each, the five carry more than one creation date (else the order proves nothing).
            #expect(Set(seeded.compactMap(\.creationDate)).count > 1)

            let ascending = try await sorted(by: "creationDate", ascending: true, in: db, zoneID: zoneID)
            let ascendingDates = ascending.compactMap(\.creationDate)
            #expect(ascendingDates.count == 5)
            #expect(ascendingDates == ascendingDates.sorted())

            let descending = try await sorted(by: "creationDate", ascending: false, in: db, zoneID: zoneID)
            let descendingDates = descending.compactMap(\.creationDate)
            #expect(descendingDates.count == 5)
            #expect(descendingDates == descendingDates.sorted(by: >))
        }
    }
}

/// Every `Place` of `zoneID`, sorted by `key`.
private func sorted(by key: String, ascending: Bool, in db: CKDatabase, zoneID: CKRecordZone.ID) async throws -> [CKRecord] {
    let query = CKQuery(recordType: "Place", predicate: NSPredicate(format: "TRUEPREDICATE"))
    query.sortDescriptors = [NSSortDescriptor(key: key, ascending: ascending)]
    var page = try await db.records(matching: query, inZoneWith: zoneID)
    var records = try page.matchResults.map { try $0.1.get() }
    while let cursor = page.queryCursor {
        page = try await db.records(continuingMatchFrom: cursor)
        records += try page.matchResults.map { try $0.1.get() }
    }
    return records
}
