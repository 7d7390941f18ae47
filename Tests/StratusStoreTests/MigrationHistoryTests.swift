import Foundation
import GRDB
import PostgresNIO
import StratusModel
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres
import StratusStoreTesting
import Testing

/// Landed migrations never change: a database made by an earlier schema — a migration as it
/// first landed, or as it was later edited — migrates to today's schema and keeps its data. The
/// fixtures are dumps made once from the migrations of those commits (`Fixtures/make-fixtures.py`).
@Suite("Migrations from landed schemas")
struct MigrationHistoryTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    let zone = ZoneKey(
        database: DatabaseKey(container: "iCloud.fixture", environment: .development, scope: .private, owner: "_alice"), name: "Notes"
    )

    @Test(arguments: ["sqlite-v8-as-first-landed.sql", "sqlite-v10-with-v8-edited.sql"])
    func anSQLiteDatabaseFromALandedSchemaMigratesToTodaysAndKeepsItsData(fixture: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = directory.appendingPathComponent("old.sqlite").path
        // The dump's own BEGIN/COMMIT give way to GRDB's transaction.
        let dump = try String(contentsOf: Self.fixtures.appendingPathComponent(fixture), encoding: .utf8)
            .split(separator: "\n").filter { $0 != "BEGIN TRANSACTION;" && $0 != "COMMIT;" }.joined(separator: "\n")
        var loading = Configuration()
        loading.foreignKeysEnabled = false  // the dump lists tables by name, not by what references what
        try await DatabaseQueue(path: old, configuration: loading).write { db in try db.execute(sql: dump) }

        let store = try SQLiteStore(path: old)
        try await store.migrate()
        try await expectDataKeptAndNewTablesWork(in: store)

        let fresh = directory.appendingPathComponent("fresh.sqlite").path
        let freshStore = try SQLiteStore(path: fresh)
        try await freshStore.migrate()
        let (migrated, today) = (try Self.sqliteSchema(at: old), try Self.sqliteSchema(at: fresh))
        #expect(migrated.symmetricDifference(today).isEmpty)
    }

    @Test(
        .enabled(if: StoreKind.postgresURL != nil, "STRATUS_TEST_POSTGRES is not set: no PostgreSQL server to test against"),
        arguments: ["postgres-p2-as-first-landed.sql", "postgres-p3-with-p2-edited.sql"]
    )
    func aPostgresDatabaseFromALandedSchemaMigratesToTodaysAndKeepsItsData(fixture: String) async throws {
        let url = try #require(StoreKind.postgresURL)
        let old = try await ScratchDatabase.create(on: url, maximumConnections: 2, migrate: false)
        let fresh = try await ScratchDatabase.create(on: url, maximumConnections: 2)
        do {
            let dump = try String(contentsOf: Self.fixtures.appendingPathComponent(fixture), encoding: .utf8)
            for statement in dump.components(separatedBy: ";\n") where statement.contains(where: { !$0.isWhitespace }) {
                let sql = statement.split(separator: "\n").filter { !$0.hasPrefix("--") }.joined(separator: "\n")
                try await old.store.execute(unsafeSQL: sql)
            }
            try await old.store.migrate()
            try await expectDataKeptAndNewTablesWork(in: old.store)
            try await old.store.setSharedSetting("fixture", to: "set")
            #expect(try await old.store.sharedSetting("fixture") == "set")
            #expect(try await Self.postgresSchema(of: old.store) == Self.postgresSchema(of: fresh.store))
        } catch {
            await old.drop()
            await fresh.drop()
            throw error
        }
        await old.drop()
        await fresh.drop()
    }

    /// The fixture's record reads back, and what was added to the schema after it works.
    private func expectDataKeptAndNewTablesWork(in store: some RecordStore & IdentityStore) async throws {
        let records = try await store.records(named: ["note-1"], in: zone)
        #expect(records.first??.fields["title"]?.value == .string("kept across migrations"))
        try await store.setPasswordHash("hash", userRecordName: "_alice")
        #expect(try await store.passwordHash(userRecordName: "_alice") == "hash")
        let key = StoredServerKey(keyID: "key-1", container: "iCloud.fixture", environment: .development, publicKeyPEM: "PEM")
        try await store.addServerKey(key)
        #expect(try await store.serverKey(id: "key-1") == key)
    }

    /// Every table and index as SQLite states it (columns in its CREATE statement), spaces aside.
    private static func sqliteSchema(at path: String) throws -> Set<String> {
        try DatabaseQueue(path: path).read { db in
            try Set(
                String.fetchAll(db, sql: "SELECT type || ' ' || name || ': ' || coalesce(sql, '') FROM sqlite_master")
                    .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            )
        }
    }

    /// Every column (table, name, type, nullability, default) and index, in a stable order.
    private static func postgresSchema(of store: PostgresStore) async throws -> [String] {
        let columns = try await store.first(
            store.query("""
                SELECT string_agg(table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' || coalesce(column_default, ''),
                    E'\\n' ORDER BY table_name, column_name)
                FROM information_schema.columns WHERE table_schema = 'public'
                """)
        ) { try $0.decode(String.self) }
        let indexes = try await store.first(
            store.query("SELECT string_agg(indexdef, E'\\n' ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'public'")
        ) { try $0.decode(String.self) }
        return [columns ?? "", indexes ?? ""]
    }
}
