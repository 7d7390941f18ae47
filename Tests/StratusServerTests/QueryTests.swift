import Foundation
import HummingbirdTesting
import StratusModel
import StratusServerTesting
import Testing

@Suite("records/query over HTTP")
struct QueryTests {
    static let lisbon = Location(latitude: 38.7223, longitude: -9.1393)

    static func place(
        _ name: String, _ caption: String, rating: Double?, visits: Int64, tags: [String], at location: Location?, trip: String?
    ) -> RecordOperation {
        var fields: [String: Field] = [
            "caption": .string(caption), "visits": .int64(visits),
            "tags": Field(.list(tags.map(FieldValue.string)), type: .stringList),
        ]
        if let rating { fields["rating"] = .double(rating) }
        if let location { fields["where"] = Field(.location(location), type: .location) }
        if let trip { fields["trip"] = Field(.reference(Reference(recordName: trip)), type: .reference) }
        return RecordOperation(.create, Record(recordName: name, recordType: "Destination", fields: fields))
    }

    static let places: [RecordOperation] = [
        place("r1", "Paris in spring", rating: 4.5, visits: 3, tags: ["food", "art"], at: Location(latitude: 48.8566, longitude: 2.3522), trip: "t1"),
        place("r2", "Lisbon by the sea", rating: 4.0, visits: 1, tags: ["sea", "food"], at: lisbon, trip: "t1"),
        place("r3", "Porto wine cellars", rating: 4.0, visits: 2, tags: ["wine"], at: Location(latitude: 41.1579, longitude: -8.6291), trip: "t2"),
        place("r4", "Rome, eternal city", rating: 5.0, visits: 5, tags: ["art", "history"], at: Location(latitude: 41.9028, longitude: 12.4964), trip: "t2"),
        place("r5", "Oslo fjords", rating: 3.5, visits: 0, tags: [], at: Location(latitude: 59.9139, longitude: 10.7522), trip: nil),
        place("r6", "Nice beaches", rating: nil, visits: 1, tags: ["sea"], at: nil, trip: nil),
    ]

    private func query(_ server: TestServer, _ query: Query, limit: Int? = nil, marker: String? = nil, desiredKeys: [String]? = nil) async throws -> QueryRecordsResponse {
        try await server.call(
            "records/query",
            QueryRecordsRequest(query: query, zoneID: ZoneID(zoneName: "Trips"), resultsLimit: limit, continuationMarker: marker, desiredKeys: desiredKeys),
            expecting: QueryRecordsResponse.self
        )
    }

    private func names(_ response: QueryRecordsResponse) -> [String] {
        response.records.compactMap { $0.record?.recordName }
    }

    struct FilterCase: Sendable, CustomTestStringConvertible {
        var filter: QueryFilter
        var expected: Set<String>
        var testDescription: String { "\(filter.comparator.rawValue) \(filter.fieldName ?? filter.systemFieldName ?? "")" }
    }

    static let all: Set<String> = ["r1", "r2", "r3", "r4", "r5", "r6"]

    /// A token filter naming no field: a search of every STRING field (CKQuery's `self CONTAINS`).
    static func everyField(_ comparator: QueryComparator, _ text: String) -> QueryFilter {
        var filter = QueryFilter(comparator, field: "caption", .string(text))
        filter.fieldName = nil
        return filter
    }
    static func list(_ items: [FieldValue], _ type: FieldType) -> Field { Field(.list(items), type: type) }

    static let filterCases: [FilterCase] = [
        .init(filter: .init(.equals, field: "caption", .string("Oslo fjords")), expected: ["r5"]),
        .init(filter: .init(.notEquals, field: "rating", .double(4.0)), expected: ["r1", "r4", "r5", "r6"]),
        .init(filter: .init(.lessThan, field: "visits", .int64(2)), expected: ["r2", "r5", "r6"]),
        .init(filter: .init(.lessThanOrEquals, field: "visits", .int64(2)), expected: ["r2", "r3", "r5", "r6"]),
        .init(filter: .init(.greaterThan, field: "rating", .double(4.0)), expected: ["r1", "r4"]),
        .init(filter: .init(.greaterThanOrEquals, field: "rating", .double(4.0)), expected: ["r1", "r2", "r3", "r4"]),
        .init(filter: .init(.in, field: "visits", list([.int64(0), .int64(5)], .int64List)), expected: ["r4", "r5"]),
        .init(filter: .init(.notIn, field: "visits", list([.int64(0), .int64(5)], .int64List)), expected: ["r1", "r2", "r3", "r6"]),
        .init(filter: .init(.beginsWith, field: "caption", .string("Po")), expected: ["r3"]),
        .init(filter: .init(.notBeginsWith, field: "caption", .string("Po")), expected: all.subtracting(["r3"])),
        .init(filter: .init(.containsAllTokens, field: "caption", .string("city ROME")), expected: ["r4"]),
        .init(filter: .init(.containsAnyTokens, field: "caption", .string("sea wine")), expected: ["r2", "r3"]),
        .init(filter: .init(.listContains, field: "tags", .string("food")), expected: ["r1", "r2"]),
        .init(filter: .init(.notListContains, field: "tags", .string("food")), expected: ["r3", "r4", "r5", "r6"]),
        .init(filter: .init(.listContainsAny, field: "tags", list([.string("wine"), .string("history")], .stringList)), expected: ["r3", "r4"]),
        .init(filter: .init(.notListContainsAny, field: "tags", list([.string("wine"), .string("history")], .stringList)), expected: ["r1", "r2", "r5", "r6"]),
        .init(filter: .init(.listContainsAll, field: "tags", list([.string("art"), .string("history")], .stringList)), expected: ["r4"]),
        .init(filter: .init(.notListContainsAll, field: "tags", list([.string("art"), .string("history")], .stringList)), expected: all.subtracting(["r4"])),
        .init(filter: .init(.listMemberBeginsWith, field: "tags", .string("hist")), expected: ["r4"]),
        .init(filter: .init(.notListMemberBeginsWith, field: "tags", .string("s")), expected: ["r1", "r3", "r4", "r5"]),
        .init(filter: .init(.near, field: "where", Field(.location(lisbon), type: .location), distance: 350_000), expected: ["r2", "r3"]),
        .init(filter: .init(.equals, field: "trip", Field(.reference(Reference(recordName: "t2")), type: .reference)), expected: ["r3", "r4"]),
        .init(filter: .init(.equals, systemField: "recordName", .string("r2")), expected: ["r2"]),
        .init(filter: .init(.greaterThan, systemField: "modifiedTimestamp", .timestamp(milliseconds: 0)), expected: all),
        .init(filter: .init(.equals, field: "___recordId", .string("r6")), expected: ["r6"]),
        .init(filter: everyField(.containsAnyTokens, "fjords BEACHES"), expected: ["r5", "r6"]),
        .init(filter: everyField(.containsAllTokens, "porto cellars"), expected: ["r3"]),
    ]

    @Test("every comparator filters in SQL", arguments: filterCases)
    func comparators(_ row: FilterCase) async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify(Self.places, zone: "Trips")
            let alice = server.userRecordName("alice")
            let response = try await query(server, Query(recordType: "Destination", filterBy: [row.filter]))
            #expect(Set(names(response)) == row.expected)
            #expect(response.continuationMarker == nil)
            let byCreator = try await query(
                server, Query(recordType: "Destination", filterBy: [.init(.equals, systemField: "createdUserRecordName", Field(.reference(Reference(recordName: alice)), type: .reference)), row.filter])
            )
            #expect(Set(names(byCreator)) == row.expected, "ANDed with the creator filter")
        }
    }

    @Test("sorts: ties break by record name, missing values come last, distance sorts work")
    func sorting() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify(Self.places, zone: "Trips")
            let descending = try await query(server, Query(recordType: "Destination", sortBy: [QuerySort(field: "rating", ascending: false)]))
            #expect(names(descending) == ["r4", "r1", "r2", "r3", "r5", "r6"])
            let ascending = try await query(server, Query(recordType: "Destination", sortBy: [QuerySort(field: "rating")]))
            #expect(names(ascending) == ["r5", "r2", "r3", "r1", "r4", "r6"])
            let twoKeys = try await query(
                server, Query(recordType: "Destination", sortBy: [QuerySort(field: "rating", ascending: false), QuerySort(field: "visits", ascending: false)])
            )
            #expect(names(twoKeys) == ["r4", "r1", "r3", "r2", "r5", "r6"])
            var near = QuerySort(field: "where")
            near.relativeLocation = Field(.location(Self.lisbon), type: .location)
            let byDistance = try await query(server, Query(recordType: "Destination", sortBy: [near]))
            #expect(names(byDistance) == ["r2", "r3", "r1", "r4", "r5", "r6"])
            let byName = try await query(server, Query(recordType: "Destination", sortBy: [QuerySort(systemField: "recordName", ascending: false)]))
            #expect(names(byName) == ["r6", "r5", "r4", "r3", "r2", "r1"])
            let filtered = try await query(
                server,
                Query(recordType: "Destination", filterBy: [.init(.listContains, field: "tags", .string("sea"))], sortBy: [QuerySort(field: "rating")]),
                desiredKeys: ["caption"]
            )
            #expect(names(filtered) == ["r2", "r6"])
            #expect(filtered.records.first?.record?.fields == ["caption": .string("Lisbon by the sea")])
        }
    }

    @Test("1,000 records in pages of 50 come back each exactly once, in order, even while records are added")
    func paging() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let values = (0..<1000).map { Int64($0 * 2) }.shuffled()
            for chunk in stride(from: 0, to: 1000, by: 200) {
                let operations = values[chunk..<(chunk + 200)].map { value in
                    RecordOperation(.create, Record(recordName: "p\(value)", recordType: "Destination", fields: ["n": .int64(value)]))
                }
                _ = try await server.modify(Array(operations), zone: "Trips")
            }
            let sorted = Query(recordType: "Destination", sortBy: [QuerySort(field: "n")])
            var seen: [Int64] = []
            var marker: String?
            var pages = 0
            repeat {
                let page = try await query(server, sorted, limit: 50, marker: marker)
                #expect(page.records.count <= 50)
                seen += page.records.compactMap { record -> Int64? in
                    if case .int64(let n)? = record.record?.fields?["n"]?.value { return n }
                    return nil
                }
                marker = page.continuationMarker
                pages += 1
                if pages == 5 {
                    // Added behind the cursor (must not appear) and ahead of it (must appear once).
                    let added = [Int64(1), 3, 1_501, 1_997].map { value in
                        RecordOperation(.create, Record(recordName: "p\(value)", recordType: "Destination", fields: ["n": .int64(value)]))
                    }
                    _ = try await server.modify(added, zone: "Trips")
                }
            } while marker != nil
            #expect(Set(seen).count == seen.count, "a record came back twice")
            #expect(seen == seen.sorted(), "pages out of order")
            #expect(Set(values).isSubset(of: Set(seen)), "a record was skipped")
            #expect(seen.contains(1_501) && seen.contains(1_997))
            #expect(!seen.contains(1) && !seen.contains(3))
            #expect(pages == 21)

            let foreign = try await server.post(
                "records/query",
                QueryRecordsRequest(query: Query(recordType: "Destination"), zoneID: ZoneID(zoneName: "Trips"), continuationMarker: try await query(server, sorted, limit: 10).continuationMarker)
            )
            #expect(foreign.status == .badRequest, "a marker was accepted with another query")
        }
    }

    @Test("bad queries are BAD_REQUEST; the public database answers anonymous queries")
    func badQueriesAndPublic() async throws {
        try await TestServer.run { server in
            let bad: [Query] = [
                Query(recordType: "9bad"),
                Query(recordType: "Destination", filterBy: [.init(.near, field: "where", .string("x"))]),
                Query(recordType: "Destination", filterBy: [.init(.equals, systemField: "nonsense", .string("x"))]),
                Query(recordType: "Destination", filterBy: [.init(.listContains, systemField: "recordName", .string("x"))]),
            ]
            for query in bad {
                let response = try await server.post("records/query", QueryRecordsRequest(query: query))
                #expect(response.status == .badRequest, "\(query)")
            }
            _ = try await server.post("records/modify", ModifyRecordsRequest(operations: [Records.create("eiffel", caption: "Eiffel")]), database: "public")
            let anonymous = try await server.post(
                "records/query", QueryRecordsRequest(query: Query(recordType: "Destination", filterBy: [.init(.beginsWith, field: "caption", .string("Eif"))])),
                database: "public", as: nil
            )
            #expect(try anonymous.decode(QueryRecordsResponse.self).records.first?.record?.recordName == "eiffel")
        }
    }
}
