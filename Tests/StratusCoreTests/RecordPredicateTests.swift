import StratusModel
import StratusStore
import Testing

@testable import StratusCore

/// A query subscription's query, decided in memory for one changed record, as records/query's SQL
/// decides it — without a server or a store: SQL's three-valued logic (a missing field is NULL,
/// and only the negative comparators hold for it), text compared byte for byte, numbers below
/// text, lists compared element by element, tokens lower-cased, and filters ANDed.
@Suite struct RecordPredicateTests {
    private func change(_ fields: [String: Field], type: String = "Destination") -> RecordChange {
        RecordChange(name: "r", type: type, fields: fields, kind: .updated)
    }

    private func predicate(_ filters: [QueryFilter], type: String = "Destination") throws -> RecordPredicate {
        try #require(RecordPredicate(query: Query(recordType: type, filterBy: filters)))
    }

    @Test func aRecordOfAnotherTypeNeverMatches() throws {
        let any = try predicate([])
        #expect(any.matches(change([:])))
        #expect(!any.matches(change([:], type: "Note")))
    }

    @Test func aMissingFieldIsNullSoOnlyTheNegativeComparatorsHold() throws {
        let empty = change([:])
        #expect(try !predicate([QueryFilter(.equals, field: "caption", .string("Paris"))]).matches(empty))
        #expect(try !predicate([QueryFilter(.lessThan, field: "rank", .int64(3))]).matches(empty))
        #expect(try predicate([QueryFilter(.notEquals, field: "caption", .string("Paris"))]).matches(empty))
        #expect(try predicate([QueryFilter(.notIn, field: "caption", Field(.list([.string("Paris")])))]).matches(empty))
        #expect(try predicate([QueryFilter(.notBeginsWith, field: "caption", .string("Pa"))]).matches(empty))
    }

    @Test func textComparesByteForByteAndBeginsWithItsLeadingCharacters() throws {
        let paris = change(["caption": .string("Paris")])
        #expect(try predicate([QueryFilter(.equals, field: "caption", .string("Paris"))]).matches(paris))
        #expect(try !predicate([QueryFilter(.equals, field: "caption", .string("paris"))]).matches(paris), "case-sensitive")
        #expect(try predicate([QueryFilter(.beginsWith, field: "caption", .string("Pa"))]).matches(paris))
        #expect(try !predicate([QueryFilter(.beginsWith, field: "caption", .string("pa"))]).matches(paris))
        #expect(try predicate([QueryFilter(.greaterThan, field: "caption", .string("Lisbon"))]).matches(paris))
    }

    @Test func numbersCompareAsNumbersAndInTakesAList() throws {
        let seven = change(["rank": .int64(7)])
        #expect(try predicate([QueryFilter(.greaterThanOrEquals, field: "rank", .int64(7))]).matches(seven))
        #expect(try !predicate([QueryFilter(.lessThan, field: "rank", .int64(7))]).matches(seven))
        #expect(try predicate([QueryFilter(.lessThan, field: "rank", .double(7.5))]).matches(seven))
        #expect(try predicate([QueryFilter(.in, field: "rank", Field(.list([.int64(1), .int64(7)])))]).matches(seven))
        #expect(try !predicate([QueryFilter(.notIn, field: "rank", Field(.list([.int64(7)])))]).matches(seven))
    }

    @Test func listComparatorsLookAtTheElements() throws {
        let tagged = change(["tags": Field(.list([.string("sea"), .string("tram")]))])
        #expect(try predicate([QueryFilter(.listContains, field: "tags", .string("tram"))]).matches(tagged))
        #expect(try !predicate([QueryFilter(.listContains, field: "tags", .string("bus"))]).matches(tagged))
        #expect(try predicate([QueryFilter(.listContainsAny, field: "tags", Field(.list([.string("bus"), .string("sea")])))]).matches(tagged))
        #expect(try !predicate([QueryFilter(.listContainsAll, field: "tags", Field(.list([.string("sea"), .string("bus")])))]).matches(tagged))
        #expect(try predicate([QueryFilter(.listMemberBeginsWith, field: "tags", .string("tr"))]).matches(tagged))
    }

    @Test func filtersAreAndedAndAQueryRecordsQueryRefusesMatchesNothing() throws {
        let record = change(["caption": .string("Paris"), "rank": .int64(7)])
        let both = try predicate([QueryFilter(.equals, field: "caption", .string("Paris")), QueryFilter(.greaterThan, field: "rank", .int64(3))])
        #expect(both.matches(record))
        let oneFails = try predicate([QueryFilter(.equals, field: "caption", .string("Paris")), QueryFilter(.greaterThan, field: "rank", .int64(9))])
        #expect(!oneFails.matches(record))
        #expect(RecordPredicate(query: Query(recordType: "not a type!")) == nil)
    }
}
