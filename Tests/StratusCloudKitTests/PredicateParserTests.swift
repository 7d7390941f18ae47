import Foundation
import StratusModel
import Testing

@testable import StratusCloudKit

/// Foundation has a `PredicateError` of its own (for `#Predicate`): name this module's.
private typealias PredicateError = StratusCloudKit.PredicateError

/// The test's argument conversion: what CKQuery's would do for the plain types used here.
private func testValue(_ argument: Any) -> FieldValue? {
    switch argument {
    case let text as String: .string(text)
    case let number as Int: .int64(Int64(number))
    case let number as Double: .double(number)
    case let date as Date: .timestamp(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    case let list as [String]: .list(list.map(FieldValue.string))
    case let location as Location: .location(location)
    case let reference as Reference: .reference(reference)
    default: nil
    }
}

private func parse(_ format: String, _ arguments: Any...) throws(PredicateError) -> ParsedPredicate {
    try PredicateParser.parse(format: format, arguments: arguments, value: testValue)
}

private func filters(_ format: String, _ arguments: Any...) throws -> [QueryFilter] {
    try PredicateParser.parse(format: format, arguments: arguments, value: testValue).filters
}

/// The message of the error parsing `format` throws; `nil` when it parses.
private func refusal(_ format: String, _ arguments: Any...) -> String? {
    do {
        _ = try PredicateParser.parse(format: format, arguments: arguments, value: testValue)
        return nil
    } catch {
        return error.message
    }
}

private func stringList(_ items: String...) -> Field {
    Field(.list(items.map(FieldValue.string)), type: .stringList)
}

private struct Opaque {}

@Suite struct PredicateParserTests {
    // MARK: Basic comparisons

    @Test(arguments: [
        ("nights = 3", QueryComparator.equals), ("nights == 3", .equals),
        ("nights != 3", .notEquals), ("nights <> 3", .notEquals),
        ("nights < 3", .lessThan), ("nights <= 3", .lessThanOrEquals), ("nights =< 3", .lessThanOrEquals),
        ("nights > 3", .greaterThan), ("nights >= 3", .greaterThanOrEquals), ("nights => 3", .greaterThanOrEquals),
    ])
    func basicOperators(format: String, comparator: QueryComparator) throws {
        #expect(try filters(format) == [QueryFilter(comparator, field: "nights", .int64(3))])
    }

    @Test func valueOnTheLeftIsMirrored() throws {
        #expect(try filters("3 < nights") == [QueryFilter(.greaterThan, field: "nights", .int64(3))])
        #expect(try filters("%@ = title", "hi") == [QueryFilter(.equals, field: "title", .string("hi"))])
    }

    @Test func objectArgumentsUseTheValueFunction() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try filters("title = %@", "hi") == [QueryFilter(.equals, field: "title", .string("hi"))])
        #expect(try filters("price > %@", 2.5) == [QueryFilter(.greaterThan, field: "price", .double(2.5))])
        #expect(try filters("seen < %@", date) == [QueryFilter(.lessThan, field: "seen", .timestamp(milliseconds: 1_700_000_000_000))])
    }

    @Test func numericSpecifiers() throws {
        #expect(try filters("a = %d AND b = %i AND c = %ld", 1, 2, 3).map(\.fieldValue) == [.int64(1), .int64(2), .int64(3)])
        #expect(try filters("a = %f AND b = %lf", 1.5, 2).map(\.fieldValue) == [.double(1.5), .double(2)])
    }

    @Test func keyArgumentsName() throws {
        #expect(try filters("%K == %@", "title", "hi") == [QueryFilter(.equals, field: "title", .string("hi"))])
    }

    @Test func referencesAreTypedReference() throws {
        let owner = Reference(recordName: "u1", action: nil)
        let filter = try #require(try filters("owner == %@", owner).first)
        #expect(filter.fieldValue.type == .reference)
        #expect(filter.fieldValue.value == .reference(owner))
    }

    // MARK: Literals

    @Test func literals() throws {
        #expect(try filters("a = 'x'").first?.fieldValue == .string("x"))
        #expect(try filters("a = \"it's\"").first?.fieldValue == .string("it's"))
        #expect(try filters(#"a = 'a\'b\n'"#).first?.fieldValue == .string("a'b\n"))
        #expect(try filters("a = 0x1F").first?.fieldValue == .int64(31))
        #expect(try filters("a = -5").first?.fieldValue == .int64(-5))
        #expect(try filters("a = 1.5e2").first?.fieldValue == .double(150))
        #expect(try filters("a = YES AND b = NO AND c = TRUE AND d = false").map(\.fieldValue.value) == [.int64(1), .int64(0), .int64(1), .int64(0)])
        #expect(try filters("#size = 1") == [QueryFilter(.equals, field: "size", .int64(1))])
    }

    @Test func castToDateIsSecondsSince2001() throws {
        let filter = try #require(try filters(#"creationDate > CAST(0, "NSDate")"#).first)
        #expect(filter.fieldValue == .timestamp(milliseconds: 978_307_200_000))
    }

    @Test func nowIsATimestamp() throws {
        let filter = try #require(try filters("modificationDate < now()").first)
        #expect(filter.fieldValue.type == .timestamp)
    }

    // MARK: Metadata keys

    @Test(arguments: [
        ("recordID", "___recordID"), ("creationDate", "___createTime"), ("modificationDate", "___modTime"),
        ("creatorUserRecordID", "___createdBy"), ("lastModifiedUserRecordID", "___modifiedBy"),
    ])
    func metadataKeysAreSystemFields(key: String, system: String) throws {
        let filter = try #require(try filters("%K = %@", key, "x").first)
        #expect(filter.systemFieldName == system)
        #expect(filter.fieldName == nil)
    }

    @Test func metadataKeysCantBeLists() {
        #expect(refusal("ANY recordID = 'x'") != nil)
        #expect(refusal("recordType = 'Note'") != nil)
    }

    // MARK: Lists, IN, CONTAINS, BEGINSWITH, BETWEEN

    @Test func inWithAnAggregateOrAnArray() throws {
        #expect(try filters("color IN {'red', 'green'}") == [QueryFilter(.in, field: "color", stringList("red", "green"))])
        #expect(try filters("color IN %@", ["red"]) == [QueryFilter(.in, field: "color", stringList("red"))])
        #expect(try filters("ANY {'red', 'green'} = color") == [QueryFilter(.in, field: "color", stringList("red", "green"))])
        #expect(try filters("%@ CONTAINS color", ["red"]) == [QueryFilter(.in, field: "color", stringList("red"))])
    }

    @Test func notInNegatesIn() throws {
        #expect(try filters("NOT (color IN %@)", ["red"]) == [QueryFilter(.notIn, field: "color", stringList("red"))])
        #expect(try filters("!(color IN {'red'})") == [QueryFilter(.notIn, field: "color", stringList("red"))])
    }

    @Test func mixedNumbersMakeADoubleList() throws {
        let filter = try #require(try filters("n IN {1, 2.5}").first)
        #expect(filter.fieldValue == Field(.list([.double(1), .double(2.5)]), type: .doubleList))
        #expect(refusal("n IN {1, 'a'}") != nil)
    }

    @Test(arguments: ["favoriteColors CONTAINS 'red'", "'red' IN favoriteColors", "ANY favoriteColors = 'red'"])
    func listMembership(format: String) throws {
        #expect(try filters(format) == [QueryFilter(.listContains, field: "favoriteColors", .string("red"))])
    }

    @Test func listMembershipNegated() throws {
        #expect(try filters("NOT (tags CONTAINS %@)", "x") == [QueryFilter(.notListContains, field: "tags", .string("x"))])
    }

    @Test func anyInIsListContainsAny() throws {
        #expect(try filters("ANY tags IN %@", ["a", "b"]) == [QueryFilter(.listContainsAny, field: "tags", stringList("a", "b"))])
        #expect(try filters("NOT (SOME tags IN {'a'})") == [QueryFilter(.notListContainsAny, field: "tags", stringList("a"))])
    }

    @Test func beginsWith() throws {
        #expect(try filters("caption BEGINSWITH %@", "Lis") == [QueryFilter(.beginsWith, field: "caption", .string("Lis"))])
        #expect(try filters("NOT caption BEGINSWITH 'x'") == [QueryFilter(.notBeginsWith, field: "caption", .string("x"))])
        #expect(try filters("ANY tags BEGINSWITH 'r'") == [QueryFilter(.listMemberBeginsWith, field: "tags", .string("r"))])
        #expect(refusal("caption BEGINSWITH 3") != nil)
    }

    @Test func betweenIsTwoBounds() throws {
        #expect(
            try filters("nights BETWEEN {2, 5}") == [
                QueryFilter(.greaterThanOrEquals, field: "nights", .int64(2)),
                QueryFilter(.lessThanOrEquals, field: "nights", .int64(5)),
            ])
        #expect(refusal("NOT (nights BETWEEN {2, 5})") != nil)
    }

    // MARK: Compound, NOT, constants

    @Test func andCombines() throws {
        let parsed = try parse("caption BEGINSWITH %@ AND nights >= %d && (b = 1 AND c = 2)", "Lisbon ", 2)
        #expect(parsed.filters.map(\.fieldName) == ["caption", "nights", "b", "c"])
    }

    @Test(arguments: [
        ("NOT (a = 1)", QueryComparator.notEquals), ("NOT a != 1", .equals), ("NOT (a < 1)", .greaterThanOrEquals),
        ("NOT (a <= 1)", .greaterThan), ("NOT (a > 1)", .lessThanOrEquals), ("NOT (a >= 1)", .lessThan), ("NOT NOT a = 1", .equals),
    ])
    func notNegatesAComparison(format: String, comparator: QueryComparator) throws {
        #expect(try filters(format) == [QueryFilter(comparator, field: "a", .int64(1))])
    }

    @Test func truthConstants() throws {
        #expect(try parse("TRUEPREDICATE") == ParsedPredicate())
        #expect(try parse("FALSEPREDICATE").matchesNothing)
        #expect(try parse("NOT TRUEPREDICATE").matchesNothing)
        #expect(try parse("a = 1 AND FALSEPREDICATE").matchesNothing)
    }

    // MARK: Location and tokenized search

    @Test func distanceIsNearInMetres() throws {
        let here = Location(latitude: 37.33, longitude: -122.03)
        let expected = QueryFilter(.near, field: "location", Field(.location(here)), distance: 10_000)
        #expect(try filters("distanceToLocation:fromLocation:(location, %@) < 10", here) == [expected])
        #expect(try filters("distanceToLocation:fromLocation:(%K, %@) < %f", "location", here, 10.0) == [expected])
        #expect(try filters("10 > distanceToLocation:fromLocation:(location, %@)", here) == [expected])
    }

    @Test func distanceRefusals() {
        let here = Location(latitude: 1, longitude: 2)
        #expect(refusal("distanceToLocation:fromLocation:(location, %@) > 10", here) != nil)
        #expect(refusal("NOT (distanceToLocation:fromLocation:(location, %@) < 10)", here) != nil)
        #expect(refusal("distanceToLocation:fromLocation:(location, 'x') < 10") != nil)
    }

    @Test func selfContainsIsATokenSearchOfEveryField() throws {
        let filter = try #require(try filters("self CONTAINS 'bob smith'").first)
        #expect(filter.comparator == .containsAnyTokens)
        #expect(filter.fieldName == nil && filter.systemFieldName == nil)
        #expect(filter.fieldValue == .string("bob smith"))
        #expect(try filters("SELF contains[cd] %@ AND self CONTAINS 'x'", "y").count == 2)
        #expect(refusal("NOT (self CONTAINS 'x')") != nil)
        #expect(refusal("self = 'x'") != nil)
    }

    // MARK: Refusals

    @Test(arguments: [
        "a = 1 OR b = 2", "a = 1 || b = 2", "(a = 1 OR b = 2) AND c = 3",
        "name LIKE 'a*'", "name MATCHES 'a.*'", "name ENDSWITH 'x'", "name FROBS 'x'", "name ~ 'x'",
        "ALL tags = 'x'", "NONE tags = 'x'", "NOT (a = 1 AND b = 2)", "owner.name = 'x'", "a + 1 = 2",
        "a = nil", "a = $x", "a = %@", "a = 'open", "a = 1 b", "name ==[c] 'x'", "tokenize:using:(a, 'x') = 1",
        "first = 1", "a IN 'x'", "a = {1, 2}", "_hidden = 1", "%K = 1",
    ])
    func refused(format: String) {
        #expect(refusal(format) != nil, "\(format) should be refused")
    }

    @Test func unsupportedArgumentTypesAreRefused() {
        let message = refusal("a = %@", Opaque())
        #expect(message?.contains("Opaque") == true)
        #expect(refusal("a = %d", "x") != nil)
        #expect(refusal("%K = 1", 5) != nil)
    }

    @Test func optionalArgumentsAreUnwrapped() throws {
        let some: String? = "hi"
        let none: String? = nil
        #expect(try filters("title = %@", some as Any) == [QueryFilter(.equals, field: "title", .string("hi"))])
        #expect(refusal("title = %@", none as Any) != nil)
    }

    @Test func orMessageSaysWhy() {
        #expect(refusal("a = 1 OR b = 2")?.contains("OR") == true)
    }
}

@Suite struct SortKeysTests {
    @Test func metadataKeysSortBySystemFields() {
        #expect(SortKeys.sort(key: "creationDate", ascending: false) == QuerySort(systemField: "___createTime", ascending: false))
        #expect(SortKeys.sort(key: "modificationDate", ascending: true) == QuerySort(systemField: "___modTime"))
        #expect(SortKeys.sort(key: "nights", ascending: false) == QuerySort(field: "nights", ascending: false))
    }

    @Test func sortDescriptorsKeepTheirKey() throws {
        let descriptor = NSSortDescriptor(key: "nights", ascending: false)
        #expect(descriptor.key == "nights")
        #expect(SortRegistry.sort(descriptor) == QuerySort(field: "nights", ascending: false))
        let copy = try #require(descriptor.copy() as? NSSortDescriptor)
        #expect(SortRegistry.sort(copy) == QuerySort(field: "nights", ascending: false))
        #expect(SortRegistry.sort(NSSortDescriptor(key: "a.b", ascending: true)) == nil)
    }
}

@Suite struct PredicateRegistryTests {
    @Test func formatPredicatesResolve() throws {
        let predicate = NSPredicate(format: "caption BEGINSWITH %@ AND nights >= %d", "Lisbon ", 2)
        let parsed = try PredicateRegistry.resolve(predicate).get()
        #expect(parsed.filters == [
            QueryFilter(.beginsWith, field: "caption", .string("Lisbon ")),
            QueryFilter(.greaterThanOrEquals, field: "nights", .int64(2)),
        ])
    }

    @Test func argumentArraysResolve() throws {
        let predicate = NSPredicate(format: "color IN %@", argumentArray: [["red", "green"]])
        #expect(try PredicateRegistry.resolve(predicate).get().filters == [QueryFilter(.in, field: "color", stringList("red", "green"))])
    }

    @Test func refusedFormatsFailWhenResolved() {
        let predicate = NSPredicate(format: "a = 1 OR b = 2")
        #expect(throws: PredicateError.self) { try PredicateRegistry.resolve(predicate).get() }
    }

    @Test func valuePredicates() throws {
        #expect(try PredicateRegistry.resolve(NSPredicate(value: true)).get() == ParsedPredicate())
        #expect(try PredicateRegistry.resolve(NSPredicate(value: false)).get().matchesNothing)
    }

    @Test func compoundPredicates() throws {
        let both = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSPredicate(format: "a = 1"), NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "b IN {'x'}")),
        ])
        #expect(try PredicateRegistry.resolve(both).get().filters == [
            QueryFilter(.equals, field: "a", .int64(1)), QueryFilter(.notIn, field: "b", stringList("x")),
        ])
        let either = NSCompoundPredicate(orPredicateWithSubpredicates: [NSPredicate(format: "a = 1"), NSPredicate(format: "a = 2")])
        #expect(throws: PredicateError.self) { try PredicateRegistry.resolve(either).get() }
    }

    #if !canImport(Darwin)
    @Test func blockPredicatesAreRefused() {
        #expect(throws: PredicateError.self) { try PredicateRegistry.resolve(NSPredicate { _, _ in true }).get() }
    }

    @Test func entriesDieWithTheirPredicate() {
        var predicates: [NSPredicate] = []
        for n in 0..<200 { predicates.append(NSPredicate(format: "a = %d", n)) }
        #expect(PredicateRegistry.parsed(predicates[150]) == .success(ParsedPredicate(filters: [QueryFilter(.equals, field: "a", .int64(150))])))
        predicates.removeAll()
        let fresh = NSPredicate { _, _ in true }
        #expect(PredicateRegistry.parsed(fresh) == nil)
    }
    #endif
}
