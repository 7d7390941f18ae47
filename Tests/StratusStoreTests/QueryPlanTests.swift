import Foundation
import StratusModel
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres
import StratusStoreTesting
import Testing

@Suite("query plans")
struct QueryPlanTests {
    @Test("an indexed field is searched through its SQL expression index, not scanned")
    func indexedQueryUsesTheIndex() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString).sqlite").path
        let store = try SQLiteStore(path: path)
        try await store.migrate()
        let database = DatabaseKey(container: "iCloud.test", environment: .production, scope: .private, owner: "_a")
        let zone = ZoneKey(database: database, name: "Z")
        _ = try await store.createZone(zone, atomic: true)
        let writes = (0..<500).map { RecordWrite(name: "r\($0)", action: .create, precondition: .none, recordType: "T", fields: ["caption": .string("c\($0 % 50)")]) }
        _ = try await store.apply(ZoneBatch(zone: zone, atomic: true, writes: writes, author: ChangeAuthor(userRecordName: "_a", deviceID: nil, timestamp: 1)))
        let query = RecordQuery(
            zone: zone, recordType: "T",
            predicates: [.init(operand: .field("caption", reference: false), comparator: .equals, value: .string("c7"))],
            sortKeys: [], limit: 200, after: nil
        )
        let before = try await store.queryPlan(query).joined(separator: "\n")
        #expect(!before.contains("records_field_caption"))

        try await store.setIndex(IndexDefinition(container: "iCloud.test", environment: .production, recordType: "T", fieldName: "caption", kind: .queryable), present: true)
        let after = try await store.queryPlan(query).joined(separator: "\n")
        #expect(after.contains("USING INDEX records_field_caption"), "\(after)")
        #expect(try await store.query(query).records.count == 10)

        // A sorted range over an indexed field reads the index in order: no sort step.
        try await store.setIndex(IndexDefinition(container: "iCloud.test", environment: .production, recordType: "T", fieldName: "caption", kind: .sortable), present: true)
        let range = RecordQuery(
            zone: zone, recordType: "T",
            predicates: [.init(operand: .field("caption", reference: false), comparator: .greaterThanOrEquals, value: .string("c3"))],
            sortKeys: [.init(operand: .field("caption", reference: false), ascending: true)], limit: 20, after: nil
        )
        let rangePlan = try await store.queryPlan(range).joined(separator: "\n")
        #expect(rangePlan.contains("USING INDEX records_field_caption") && !rangePlan.contains("TEMP B-TREE"), "\(rangePlan)")
        let firstPage = try await store.query(range)
        #expect(firstPage.records.map { $0.fields["caption"] } == Array(repeating: .string("c3"), count: 10) + Array(repeating: .string("c30"), count: 10))
        try await store.setIndex(IndexDefinition(container: "iCloud.test", environment: .production, recordType: "T", fieldName: "caption", kind: .sortable), present: false)

        try await store.setIndex(IndexDefinition(container: "iCloud.test", environment: .production, recordType: "T", fieldName: "caption", kind: .queryable), present: false)
        #expect(!(try await store.queryPlan(query).joined().contains("records_field_caption")), "the SQL index outlived its last schema index")
    }
}

/// The same promise on PostgreSQL: a schema index is an expression index over the field's `jsonb`
/// value, and PostgreSQL's planner searches through it (EXPLAIN). (For a wide range the planner
/// may rightly prefer a scan: it has statistics after ANALYZE.)
@Suite("query plans on PostgreSQL", .enabled(if: StoreKind.postgresURL != nil, "STRATUS_TEST_POSTGRES is not set: no PostgreSQL server (.ci/run starts one)"))
struct PostgresQueryPlanTests {
    @Test("an indexed field is searched through its expression index; a sorted range pages in order")
    func indexedQueryUsesTheIndex() async throws {
        let url = try #require(StoreKind.postgresURL)
        let scratch = try await ScratchDatabase.create(on: url, maximumConnections: 4)
        do {
            try await Self.check(scratch.store)
        } catch {
            await scratch.drop()
            throw error
        }
        await scratch.drop()
    }

    private static func check(_ store: PostgresStore) async throws {
        let database = DatabaseKey(container: "iCloud.test", environment: .production, scope: .private, owner: "_a")
        let zone = ZoneKey(database: database, name: "Z")
        _ = try await store.createZone(zone, atomic: true)
        for start in stride(from: 0, to: 5_000, by: 1_000) {
            let writes = (start..<start + 1_000).map {
                RecordWrite(name: "r\($0)", action: .create, precondition: .none, recordType: "T", fields: ["caption": .string("c\($0 % 500)")])
            }
            _ = try await store.apply(ZoneBatch(zone: zone, atomic: true, writes: writes, author: ChangeAuthor(userRecordName: "_a", deviceID: nil, timestamp: 1)))
        }
        let caption = RecordQuery.Operand.field("caption", reference: false)
        let query = RecordQuery(zone: zone, recordType: "T", predicates: [.init(operand: caption, comparator: .equals, value: .string("c7"))], sortKeys: [], limit: 200, after: nil)
        #expect(!(try await store.queryPlan(query).joined(separator: "\n").contains("records_field_caption")))

        let index = IndexDefinition(container: "iCloud.test", environment: .production, recordType: "T", fieldName: "caption", kind: .queryable)
        try await store.setIndex(index, present: true)
        try await store.execute(unsafeSQL: "ANALYZE records")
        let plan = try await store.queryPlan(query).joined(separator: "\n")
        #expect(plan.contains("Index Scan using records_field_caption") || plan.contains("Bitmap Index Scan on records_field_caption"), "\(plan)")
        #expect(try await store.query(query).records.count == 10)

        let range = RecordQuery(
            zone: zone, recordType: "T", predicates: [.init(operand: caption, comparator: .greaterThanOrEquals, value: .string("c3"))],
            sortKeys: [.init(operand: caption, ascending: true)], limit: 20, after: nil
        )
        let page = try await store.query(range)
        #expect(page.records.map { $0.fields["caption"] } == Array(repeating: .string("c3"), count: 10) + Array(repeating: .string("c30"), count: 10))
        let next = try await store.query(RecordQuery(zone: zone, recordType: "T", predicates: range.predicates, sortKeys: range.sortKeys, limit: 20, after: page.next))
        #expect(next.records.first?.fields["caption"] == .string("c300") && Set(next.records.map(\.name)).isDisjoint(with: page.records.map(\.name)))

        try await store.setIndex(index, present: false)
        #expect(!(try await store.queryPlan(query).joined().contains("records_field_caption")), "the expression index outlived its last schema index")
    }
}
