import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// A query subscription notifies for a record if and only if records/query with the same query
/// answers it: for every comparator, over records of every field type written by two accounts
/// at two known times, the records each subscription named are the records its query returns.
@Suite struct QueryAgreementTests {
    /// One subscription's query: its ID, its filters, and the records it must answer when the
    /// answer does not depend on the clock.
    struct Case {
        var id: String
        var filters: [QueryFilter]
        var expected: Set<String>?
    }

    @Test func queryNotificationsAgreeWithRecordsQueryOnEveryComparator() async throws {
        try await TestServer.run { server in
            let split = Self.milliseconds() + 2_000
            let cases = Self.cases(alice: server.userRecordName("alice"), bob: server.userRecordName("bob"), split: split)
            let subscriptions = cases.map { item in
                Subscription(subscriptionID: item.id, kind: .query, query: Query(recordType: "Spot", filterBy: item.filters), firesOn: [.create])
            }
            let created = try await server.subscribe(subscriptions, database: "public")
            #expect(created.allSatisfy { $0.error == nil }, "\(created.compactMap(\.error))")
            var phone = try await server.listener("alice", device: "phone")

            // Alice's records before `split`, bob's after it.
            try await Self.create(Self.early, as: "alice", device: "laptop", server)
            let wait = split + 50 - Self.milliseconds()
            if wait > 0 { try await Task.sleep(for: .milliseconds(wait)) }
            try await Self.create(Self.late, as: "bob", device: "bob-phone", server)

            var answered: [String: Set<String>] = [:]
            for item in cases {
                let request = QueryRecordsRequest(query: Query(recordType: "Spot", filterBy: item.filters))
                let response = try await server.post("records/query", request, database: "public", as: "alice")
                #expect(response.status == .ok, "\(item.id): \(response.text)")
                let records = try response.decode(QueryRecordsResponse.self).records
                answered[item.id] = Set(records.compactMap { $0.record?.recordName })
            }
            let notified = try await server.collect(&phone, count: answered.values.reduce(0) { $0 + $1.count })
            var named: [String: [String]] = [:]
            for notification in notified {
                named[notification.subscriptionID ?? "?", default: []].append(notification.recordName ?? "?")
            }
            #expect(Set(named.keys).isSubset(of: Set(cases.map(\.id))), "\(named.keys.sorted())")
            for item in cases {
                let names = named[item.id] ?? []
                #expect(names.count == Set(names).count, "\(item.id): one notification per record, got \(names)")
                #expect(
                    Set(names) == answered[item.id],
                    "\(item.id): notified \(names.sorted()), records/query answers \(answered[item.id]?.sorted() ?? [])"
                )
                if let expected = item.expected {
                    #expect(answered[item.id] == expected, "\(item.id): records/query answers \(answered[item.id]?.sorted() ?? [])")
                }
            }
        }
    }

    // MARK: - Records

    static func milliseconds() -> Int64 { Int64(Date().timeIntervalSince1970 * 1_000) }

    static func create(_ records: [Record], as account: String, device: String, _ server: TestServer) async throws {
        let request = ModifyRecordsRequest(operations: records.map { RecordOperation(.create, $0) })
        let response = try await server.post("records/modify", request, database: "public", as: account, device: device)
        #expect(response.status == .ok, "\(response.text)")
        let results = try response.decode(RecordsResponse.self).records
        #expect(results.allSatisfy { $0.error == nil }, "\(results.compactMap(\.error))")
    }

    static func spot(_ name: String, _ fields: [String: Field]) -> Record {
        Record(recordName: name, recordType: "Spot", fields: fields)
    }

    static func tags(_ words: String...) -> Field { Field(.list(words.map(FieldValue.string)), type: .stringList) }
    static func sizes(_ numbers: Int64...) -> Field { Field(.list(numbers.map(FieldValue.int64)), type: .int64List) }
    static func reference(_ name: String) -> Field { Field(.reference(Reference(recordName: name)), type: .reference) }
    static func place(_ latitude: Double, _ longitude: Double) -> Field {
        Field(.location(Location(latitude: latitude, longitude: longitude)), type: .location)
    }

    /// Alice's: r1, r2, r3 and r8.
    static let early = [
        spot("r1", [
            "name": .string("Lisbon"), "code": .string("A1"), "rank": .int64(5), "score": .double(4.5), "when": .timestamp(milliseconds: 1_000),
            "place": place(38.7223, -9.1393), "tags": tags("sea", "old"), "sizes": sizes(1, 2, 3), "owner": reference("u1"),
            "note": .string("Sunny, old town; tram 28!"),
        ]),
        spot("r2", [
            "name": .string("lisbon"), "code": .string("A2"), "rank": .int64(3), "score": .double(3.0), "when": .timestamp(milliseconds: 2_000),
            "place": place(38.75, -9.2), "tags": tags("old"), "sizes": sizes(2), "owner": reference("u2"),
            "note": .string("Rainy day in the OLD town"),
        ]),
        spot("r3", [
            "name": .string("Porto"), "code": .string("B1"), "rank": .int64(4), "score": .double(4.0), "when": .timestamp(milliseconds: 3_000),
            "place": place(41.1579, -8.6291), "tags": tags("wine", "sea"), "sizes": sizes(), "owner": reference("u1"),
            "note": .string("wine-tasting and bridges"),
        ]),
        spot("r8", ["name": .string("Lisboa"), "code": .string("A3"), "rank": .int64(10), "score": .double(-1), "tags": tags(), "note": .string("tram")]),
    ]

    /// Bob's: r4, r5, r6 and r7.
    static let late = [
        spot("r4", [
            "name": .string("Paris"), "code": .string("C1"), "rank": .int64(5), "score": .double(5), "when": .timestamp(milliseconds: 4_000),
            "place": place(48.8566, 2.3522), "tags": tags("art"), "sizes": sizes(4, 5), "owner": reference("u3"),
            "note": .string("Art, museums (Louvre)"),
        ]),
        spot("r5", ["name": .string("Pa"), "code": .string("C2"), "rank": .int64(1), "sizes": sizes(1)]),
        spot("r6", [
            "name": .string("Évora"), "code": .string("B2"), "rank": .int64(2), "score": .double(2.5), "when": .timestamp(milliseconds: 1_500),
            "place": place(38.5714, -7.9135), "tags": tags("old", "wine"), "owner": reference("u2"), "note": .string("Roman temple"),
        ]),
        spot("r7", ["note": .string("tram tram")]),
    ]

    // MARK: - Queries

    static func cases(alice: String, bob: String, split: Int64) -> [Case] {
        func field(_ comparator: QueryComparator, _ name: String, _ value: Field) -> [QueryFilter] { [QueryFilter(comparator, field: name, value)] }
        func everyField(_ comparator: QueryComparator, _ text: String) -> [QueryFilter] {
            var filter = QueryFilter(comparator, field: "note", .string(text))
            filter.fieldName = nil
            return [filter]
        }
        func system(_ comparator: QueryComparator, _ name: String, _ value: Field) -> [QueryFilter] {
            [QueryFilter(comparator, systemField: name, value)]
        }
        let everyone: Set<String> = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8"]
        let wineOrArt = Field(.list([.string("wine"), .string("art")]), type: .stringList)
        let oldAndSea = Field(.list([.string("old"), .string("sea")]), type: .stringList)
        let lisbon = Field(.location(Location(latitude: 38.7223, longitude: -9.1393)))
        return [
            Case(id: "equals", filters: field(.equals, "name", .string("Lisbon")), expected: ["r1"]),
            Case(id: "equals-unicode", filters: field(.equals, "name", .string("Évora")), expected: ["r6"]),
            Case(id: "not-equals", filters: field(.notEquals, "name", .string("Lisbon")), expected: everyone.subtracting(["r1"])),
            Case(id: "less", filters: field(.lessThan, "rank", .int64(4)), expected: ["r2", "r5", "r6"]),
            Case(id: "less-or-equal", filters: field(.lessThanOrEquals, "rank", .int64(4)), expected: ["r2", "r3", "r5", "r6"]),
            Case(id: "greater", filters: field(.greaterThan, "rank", .int64(4)), expected: ["r1", "r4", "r8"]),
            Case(id: "greater-or-equal", filters: field(.greaterThanOrEquals, "score", .double(4)), expected: ["r1", "r3", "r4"]),
            Case(id: "text-range", filters: field(.lessThan, "code", .string("B")), expected: ["r1", "r2", "r8"]),
            Case(id: "in", filters: field(.in, "rank", Field(.list([.int64(3), .int64(5)]), type: .int64List)), expected: ["r1", "r2", "r4"]),
            Case(
                id: "not-in", filters: field(.notIn, "rank", Field(.list([.int64(3), .int64(5)]), type: .int64List)),
                expected: ["r3", "r5", "r6", "r7", "r8"]
            ),
            Case(id: "begins", filters: field(.beginsWith, "name", .string("Lis")), expected: ["r1", "r8"]),
            Case(id: "not-begins", filters: field(.notBeginsWith, "name", .string("Pa")), expected: everyone.subtracting(["r4", "r5"])),
            Case(id: "all-tokens", filters: field(.containsAllTokens, "note", .string("old TOWN")), expected: ["r1", "r2"]),
            Case(id: "any-tokens", filters: field(.containsAnyTokens, "note", .string("louvre, wine")), expected: ["r3", "r4"]),
            Case(id: "one-token", filters: field(.containsAllTokens, "note", .string("tram")), expected: ["r1", "r7", "r8"]),
            // No field named: every STRING field is searched (CKQuery's `self CONTAINS`).
            Case(id: "every-field-token", filters: everyField(.containsAnyTokens, "tram"), expected: nil),
            Case(id: "near", filters: [QueryFilter(.near, field: "place", lisbon, distance: 10_000)], expected: ["r1", "r2"]),
            Case(id: "list-contains", filters: field(.listContains, "tags", .string("old")), expected: ["r1", "r2", "r6"]),
            Case(id: "not-list-contains", filters: field(.notListContains, "tags", .string("old")), expected: ["r3", "r4", "r5", "r7", "r8"]),
            Case(id: "list-any", filters: field(.listContainsAny, "tags", wineOrArt), expected: ["r3", "r4", "r6"]),
            Case(id: "not-list-any", filters: field(.notListContainsAny, "tags", wineOrArt), expected: ["r1", "r2", "r5", "r7", "r8"]),
            Case(id: "list-all", filters: field(.listContainsAll, "tags", oldAndSea), expected: ["r1"]),
            Case(id: "not-list-all", filters: field(.notListContainsAll, "tags", oldAndSea), expected: everyone.subtracting(["r1"])),
            Case(id: "member-begins", filters: field(.listMemberBeginsWith, "tags", .string("wi")), expected: ["r3", "r6"]),
            Case(id: "not-member-begins", filters: field(.notListMemberBeginsWith, "tags", .string("wi")), expected: everyone.subtracting(["r3", "r6"])),
            Case(id: "number-list", filters: field(.listContains, "sizes", .int64(2)), expected: ["r1", "r2"]),
            Case(id: "reference", filters: field(.equals, "owner", reference("u1")), expected: ["r1", "r3"]),
            Case(
                id: "reference-in",
                filters: field(.in, "owner", Field(.list([.reference(Reference(recordName: "u2")), .reference(Reference(recordName: "u3"))]), type: .referenceList)),
                expected: ["r2", "r4", "r6"]
            ),
            Case(id: "when", filters: field(.lessThan, "when", .timestamp(milliseconds: 2_500)), expected: ["r1", "r2", "r6"]),
            Case(id: "created-by", filters: system(.equals, "createdUserRecordName", reference(alice)), expected: ["r1", "r2", "r3", "r8"]),
            Case(id: "not-modified-by", filters: system(.notEquals, "modifiedUserRecordName", .string(bob)), expected: ["r1", "r2", "r3", "r8"]),
            Case(
                id: "record-name-in",
                filters: system(.in, "recordName", Field(.list([.string("r1"), .string("r4"), .string("nope")]), type: .stringList)),
                expected: ["r1", "r4"]
            ),
            Case(id: "record-name-begins", filters: system(.beginsWith, "recordName", .string("r1")), expected: ["r1"]),
            Case(id: "record-id-field", filters: field(.equals, "___recordId", .string("r3")), expected: ["r3"]),
            // Depend on the clock: compared with records/query only.
            Case(id: "created-before", filters: system(.lessThan, "createdTimestamp", .timestamp(milliseconds: split)), expected: nil),
            Case(id: "modified-after", filters: system(.greaterThanOrEquals, "modifiedTimestamp", .timestamp(milliseconds: split)), expected: nil),
            Case(
                id: "and",
                filters: [QueryFilter(.greaterThan, field: "rank", .int64(1)), QueryFilter(.listContains, field: "tags", .string("sea"))],
                expected: ["r1", "r3"]
            ),
        ]
    }
}
