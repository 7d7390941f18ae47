import Foundation
import StratusModel
import StratusStore
import StratusStoreSQLite
import StratusStorePostgres
import Testing

/// `IdentityStore`'s contract, run against the SQLite store and the PostgreSQL store alike.
@Suite("IdentityStore on both stores")
struct IdentityStoreTests {
    @Test("SQLite")
    func sqlite() async throws {
        let store = try SQLiteStore()
        try await store.migrate()
        try await Self.contract(store)
    }

    @Test("PostgreSQL", .enabled(if: TestDatabase.url != nil, TestDatabase.skipReason))
    func postgres() async throws {
        try await TestDatabase.withStore { store in try await Self.contract(store) }
    }

    @Test("PostgreSQL: instances migrating at once apply each migration once", .enabled(if: TestDatabase.url != nil, TestDatabase.skipReason))
    func concurrentMigrations() async throws {
        try await TestDatabase.withStore { store in
            let again = PostgresStore(store.location)
            let third = PostgresStore(store.location)
            try await again.running {
                try await third.running {
                    async let first: Void = again.migrate()
                    async let second: Void = third.migrate()
                    _ = try await (first, second)
                }
                try await store.createContainer("iCloud.after")
                #expect(try await again.containers(limit: 10) == ["iCloud.after"])
            }
        }
    }

    @Test("store URLs: what they must name")
    func locations() throws {
        let location = try PostgresLocation(url: "postgres://stratus:s%40cret@db.internal:6543/cloud?sslmode=require")
        #expect(location.username == "stratus" && location.password == "s@cret" && location.host == "db.internal")
        #expect(location.port == 6543 && location.database == "cloud" && location.requiresTLS)
        #expect(location.description == "postgres://stratus@db.internal:6543/cloud")
        #expect(try PostgresLocation(url: "postgresql://me@localhost/db").port == 5432)
        for bad in ["mysql://me@host/db", "postgres://host/db", "postgres://me@host", "postgres://me@/db", "not a url"] {
            #expect(throws: StoreError.self, "\(bad)") { try PostgresLocation(url: bad) }
        }
    }

    static func contract(_ store: any IdentityStore) async throws {
        try await store.createContainer("iCloud.b")
        try await store.createContainer("iCloud.a")
        try await store.createContainer("iCloud.a")
        #expect(try await store.containers(limit: 10) == ["iCloud.a", "iCloud.b"])
        #expect(try await store.containerExists("iCloud.a"))
        #expect(try await !store.containerExists("iCloud.c"))

        try await store.addAPIToken(hash: "h1", container: "iCloud.a", environment: .production)
        #expect(try await store.apiToken(hash: "h1") == StoredAPIToken(container: "iCloud.a", environment: .production))
        #expect(try await store.apiToken(hash: "h2") == nil)

        let alice = StoredAccount(userRecordName: "_alice", email: "Alice@Example.com", givenName: "Alice", familyName: nil, discoverable: true)
        let bob = StoredAccount(userRecordName: "_bob", email: "bob@example.com", givenName: nil, familyName: "B", discoverable: false)
        try await store.createAccount(alice)
        try await store.createAccount(bob)
        do {
            try await store.createAccount(StoredAccount(userRecordName: "_other", email: "alice@EXAMPLE.com", givenName: nil, familyName: nil))
            Issue.record("an email taken in another case was accepted")
        } catch {
            #expect(error.kind == .duplicate)
        }
        #expect(try await store.account(email: "ALICE@example.com") == alice)
        #expect(try await store.account(userRecordName: "_bob") == bob)
        #expect(try await store.account(userRecordName: "_nobody") == nil)
        let found = try await store.accounts(userRecordNames: ["_bob"], emails: ["alice@example.COM"])
        #expect(Set(found.map(\.userRecordName)) == ["_alice", "_bob"])
        #expect(try await store.accounts(userRecordNames: [], emails: []).isEmpty)
        #expect(try await store.discoverableAccounts(limit: 10).map(\.userRecordName) == ["_alice"])
        #expect(try await store.allAccounts(limit: 10).map(\.userRecordName) == ["_alice", "_bob"])
        #expect(try await store.allAccounts(limit: 1).count == 1)
        var renamed = bob
        renamed.givenName = "Bob"
        renamed.discoverable = true
        try await store.updateAccount(renamed)
        #expect(try await store.account(userRecordName: "_bob") == renamed)

        #expect(try await store.passwordHash(userRecordName: "_alice") == nil)
        try await store.setPasswordHash("pbkdf2$x", userRecordName: "_alice")
        #expect(try await store.passwordHash(userRecordName: "_alice") == "pbkdf2$x")
        try await store.setPasswordHash(nil, userRecordName: "_alice")
        #expect(try await store.passwordHash(userRecordName: "_alice") == nil)

        let token = StoredWebAuthToken(userRecordName: "_alice", container: "iCloud.a", expiresAt: 42)
        try await store.addWebAuthToken(hash: "w1", token: token)
        #expect(try await store.webAuthToken(hash: "w1") == token)
        #expect(try await store.revokeWebAuthToken(hash: "w1")?.revoked == true)
        #expect(try await store.webAuthToken(hash: "w1")?.revoked == true)
        #expect(try await store.revokeWebAuthToken(hash: "w9") == nil)

        let key = StoredServerKey(keyID: "k1", container: "iCloud.a", environment: .development, publicKeyPEM: "PEM")
        try await store.addServerKey(key)
        #expect(try await store.serverKey(id: "k1") == key)
        #expect(try await store.revokeServerKey(id: "k1"))
        #expect(try await !store.revokeServerKey(id: "k1"))
        #expect(try await store.serverKey(id: "k1") == nil)

        try await store.addAdminToken(hash: "a1")
        try await store.addAdminToken(hash: "a1")
        #expect(try await store.adminTokenExists(hash: "a1"))
        #expect(try await !store.adminTokenExists(hash: "a2"))
    }
}
