import Foundation
import StratusModel
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres
import StratusStoreTesting
import Testing

/// One suite run against every store: in-memory SQLite, an SQLite file (WAL pool), in-memory
/// SQLite read ahead (the batch engine run again after every row it was refused, as on
/// PostgreSQL: ``ReadAheadBatchRows``) and, where `STRATUS_TEST_POSTGRES` names a server
/// (`.ci/run` starts one), PostgreSQL on a database of its own per test.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqliteMemory, sqliteFile, sqliteReadAhead, postgres

    static let postgresURL = ProcessInfo.processInfo.environment["STRATUS_TEST_POSTGRES"].flatMap { $0.isEmpty ? nil : $0 }

    /// The stores this run can reach: PostgreSQL only with a server to test against.
    static var allCases: [StoreKind] {
        let local: [StoreKind] = [.sqliteMemory, .sqliteFile, .sqliteReadAhead]
        return postgresURL == nil ? local : local + [.postgres]
    }

    /// Each back end once, for suites that write no zone batch (the read-ahead kind differs only there).
    static var backEnds: [StoreKind] { allCases.filter { $0 != .sqliteReadAhead } }

    var testDescription: String { rawValue }

    /// Runs `body` on a fresh, migrated store of this kind (a PostgreSQL database is dropped after).
    func withStore(_ body: (any CompleteStore) async throws -> Void) async throws {
        switch self {
        case .sqliteMemory:
            let store = try SQLiteStore()
            try await store.migrate()
            try await body(store)
        case .sqliteReadAhead:
            let tally = ReadAheadTally()
            let store = try SQLiteStore(batchReading: .readAhead(tally))
            try await store.migrate()
            try await body(store)
            // Every batch reads a row (its records', at least): each was decided more than once.
            #expect(tally.batches == 0 || tally.runs > tally.batches, "the engine was never run again: \(tally.batches) batches in \(tally.runs) runs")
        case .sqliteFile:
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString).sqlite").path
            let store = try SQLiteStore(path: path)
            try await store.migrate()
            try await body(store)
        case .postgres:
            guard let url = StoreKind.postgresURL else { throw StoreError(.invalid, "STRATUS_TEST_POSTGRES is not set") }
            let scratch = try await ScratchDatabase.create(on: url, maximumConnections: 5)
            do {
                try await body(scratch.store)
            } catch {
                await scratch.drop()
                throw error
            }
            await scratch.drop()
        }
    }
}

@Suite("RecordStore conformance")
struct RecordStoreConformanceTests {
    let database = DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice")
    var zone: ZoneKey { ZoneKey(database: database, name: "Z") }
    let author = ChangeAuthor(userRecordName: "_alice", deviceID: "d1", timestamp: 1_000)

    private func save(_ name: String, _ caption: String, tag: String? = nil, action: RecordWrite.Action = .save(replace: false)) -> RecordWrite {
        RecordWrite(
            name: name, action: action, precondition: tag.map(RecordWrite.Precondition.changeTag) ?? .none,
            recordType: "T", fields: ["caption": .string(caption)]
        )
    }

    private func batch(_ writes: [RecordWrite], atomic: Bool = true) -> ZoneBatch {
        ZoneBatch(zone: zone, atomic: atomic, writes: writes, author: author)
    }

    @Test("a batch writes rows with increasing sequence values and new change tags", arguments: StoreKind.allCases)
    func applyBatch(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(zone, atomic: true)
            let result = try await store.apply(batch([save("a", "1"), save("b", "1")]))
            guard case .saved(let a) = result.outcomes[0], case .saved(let b) = result.outcomes[1] else {
                throw TestFailure("not saved: \(result.outcomes)")
            }
            #expect(b.seq == a.seq + 1)
            #expect(result.zone.lastSeq == b.seq)
            let update = try await store.apply(batch([save("a", "2", tag: a.changeTag)]))
            guard case .saved(let a2) = update.outcomes[0] else { throw TestFailure("update failed") }
            #expect(a2.changeTag != a.changeTag && a2.fields["caption"] == .string("2"))
            let conflict = try await store.apply(batch([save("a", "3", tag: a.changeTag)]))
            #expect(conflict.outcomes == [.failed(.conflict(a2))])
        }
    }

    @Test("an atomic batch with a failing write rolls back; a non-atomic one keeps the rest", arguments: StoreKind.allCases)
    func atomicity(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(zone, atomic: true)
            let atomic = try await store.apply(batch([save("a", "1"), save("b", "1", tag: "nope")]))
            #expect(atomic.outcomes == [.failed(.atomicAborted), .failed(.notFound)])
            #expect(try await store.records(named: ["a"], in: zone) == [nil])
            let loose = try await store.apply(batch([save("a", "1"), save("b", "1", tag: "nope")], atomic: false))
            #expect(loose.outcomes.count == 2)
            #expect(try await store.records(named: ["a"], in: zone).first??.name == "a")
        }
    }

    @Test("change pages are ordered by sequence, coalesced, and cost the same at any depth", arguments: StoreKind.allCases)
    func changePages(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(zone, atomic: true)
            _ = try await store.apply(batch((0..<10).map { save("r\($0)", "v1") }))
            _ = try await store.apply(batch([save("r0", "v2")]))
            let first = try await store.changes(in: zone, generation: nil, after: 0, recordTypes: nil, limit: 4)
            #expect(first.records.map(\.name) == ["r1", "r2", "r3", "r4"] && first.moreComing)
            let rest = try await store.changes(in: zone, generation: first.zone.id, after: first.throughSeq, recordTypes: nil, limit: 100)
            #expect(rest.records.map(\.name) == ["r5", "r6", "r7", "r8", "r9", "r0"] && !rest.moreComing)
            #expect(rest.throughSeq == rest.zone.lastSeq)
            let filtered = try await store.changes(in: zone, generation: nil, after: 0, recordTypes: ["Other"], limit: 100)
            #expect(filtered.records.isEmpty)
        }
    }

    @Test("compaction expires older tokens and drops tombstones; a deleted zone is in the database feed", arguments: StoreKind.allCases)
    func compactionAndZoneDeletion(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let created = try await store.createZone(zone, atomic: true)
            _ = try await store.apply(batch([save("a", "1"), save("b", "1")]))
            let token = try await store.changes(in: zone, generation: nil, after: 0, recordTypes: nil, limit: 100)
            _ = try await store.apply(batch([RecordWrite(name: "b", action: .delete, precondition: .none, recordType: nil)]))
            _ = try await store.compact(zone)
            await #expect(throws: StoreError(.tokenExpired)) {
                _ = try await store.changes(in: zone, generation: token.zone.id, after: token.throughSeq, recordTypes: nil, limit: 100)
            }
            let fresh = try await store.changes(in: zone, generation: nil, after: 0, recordTypes: nil, limit: 100)
            #expect(fresh.records.map(\.name) == ["a"])

            let feedStart = try await store.currentSequence()
            _ = try await store.deleteZone(zone)
            let feed = try await store.databaseChanges(in: database, after: feedStart, limit: 10)
            #expect(feed.zones.map(\.id) == [created.id] && feed.zones.first?.isDeleted == true)
            #expect(try await store.zone(zone) == nil)
            let recreated = try await store.createZone(zone, atomic: true)
            #expect(recreated.id != created.id)
            await #expect(throws: StoreError(.tokenExpired)) {
                _ = try await store.changes(in: zone, generation: created.id, after: fresh.throughSeq, recordTypes: nil, limit: 100)
            }
        }
    }

    @Test("the schema learns types and refuses a conflicting one inside the batch", arguments: StoreKind.allCases)
    func schema(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(zone, atomic: true)
            var first = batch([save("a", "x")])
            first.schema = [SchemaField(recordType: "T", fieldName: "caption", type: .string)]
            _ = try await store.apply(first)
            #expect(try await store.schema(container: "iCloud.test", environment: .development) == ["T": ["caption": .string]])
            var clash = batch([save("b", "y")])
            clash.schema = [SchemaField(recordType: "T", fieldName: "caption", type: .int64)]
            let result = try await store.apply(clash)
            guard case .failed(.invalid) = result.outcomes.first else { throw TestFailure("type clash accepted") }
        }
    }

    @Test("concurrent batches are grouped into shared commits without mixing their outcomes", arguments: StoreKind.allCases)
    func concurrentBatches(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(zone, atomic: true)
            let missing = ZoneKey(database: database, name: "Missing")
            let template = batch([])
            let results: [Int: Result<ZoneBatchResult, StoreError>] = try await withThrowingTaskGroup(of: (Int, Result<ZoneBatchResult, StoreError>).self) { group throws -> [Int: Result<ZoneBatchResult, StoreError>] in
                for index in 0..<60 {
                    group.addTask {
                        var writes: [RecordWrite] = [save("c\(index)", "\(index)")]
                        if index % 3 == 0 { writes.append(save("never\(index)", "x", tag: "stale")) }
                        var batch = template
                        batch.writes = writes
                        if index % 10 == 7 { batch.zone = missing }
                        do { return (index, .success(try await store.apply(batch))) } catch let error as StoreError { return (index, .failure(error)) }
                    }
                }
                var all: [Int: Result<ZoneBatchResult, StoreError>] = [:]
                for try await (index, result) in group { all[index] = result }
                return all
            }
            var seqs = Set<Int64>()
            for index in 0..<60 {
                let result = try #require(results[index])
                if index % 10 == 7 {
                    #expect(throws: StoreError(.zoneNotFound)) { try result.get() }
                    continue
                }
                let outcomes: [WriteOutcome] = try result.get().outcomes
                if index % 3 == 0 {
                    #expect(outcomes == [.failed(.atomicAborted), .failed(.notFound)], "batch \(index)")
                } else {
                    guard case .saved(let record) = outcomes.first else { throw TestFailure("batch \(index): \(outcomes)") }
                    #expect(record.fields["caption"] == .string("\(index)"))
                    seqs.insert(record.seq)
                }
            }
            let expected = (0..<60).filter { $0 % 3 != 0 && $0 % 10 != 7 }
            #expect(seqs.count == expected.count)
            let page = try await store.changes(in: zone, generation: nil, after: 0, recordTypes: nil, limit: 200)
            #expect(Set(page.records.map(\.name)) == Set(expected.map { "c\($0)" }))
            #expect(page.records.map(\.seq) == page.records.map(\.seq).sorted())
        }
    }

    @Test("identity: accounts are unique by email, credentials resolve by hash", arguments: StoreKind.allCases)
    func identity(kind: StoreKind) async throws {
        try await kind.withStore { store in
            try await store.createContainer("iCloud.test")
            try await store.addAPIToken(hash: "h1", container: "iCloud.test", environment: .production)
            #expect(try await store.apiToken(hash: "h1") == StoredAPIToken(container: "iCloud.test", environment: .production))
            #expect(try await store.apiToken(hash: "h2") == nil)
            let account = StoredAccount(userRecordName: "_a", email: "a@example.com", givenName: "A", familyName: nil)
            try await store.createAccount(account)
            await #expect(throws: StoreError.self) {
                try await store.createAccount(StoredAccount(userRecordName: "_b", email: "A@example.com", givenName: nil, familyName: nil))
            }
            #expect(try await store.account(email: "a@example.com") == account)
            try await store.addWebAuthToken(hash: "w", token: StoredWebAuthToken(userRecordName: "_a", container: "iCloud.test", expiresAt: nil))
            #expect(try await store.webAuthToken(hash: "w")?.userRecordName == "_a")
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
