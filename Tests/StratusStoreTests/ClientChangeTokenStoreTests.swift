import StratusModel
import StratusStore
import Testing

/// Client change tokens as every store keeps them: by zone incarnation and client, the token of
/// the latest commit standing whatever order they are set in, none once the zone is deleted.
@Suite("Client change token store")
struct ClientChangeTokenStoreTests {
    @Test("a token stands for its zone incarnation and client until the next one", arguments: StoreKind.backEnds)
    func keeps(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == nil)
            try await store.setClientChangeToken("first", zone: 1, client: "alice phone", asOf: 10)
            try await store.setClientChangeToken("other", zone: 1, client: "alice laptop", asOf: 11)
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "first")
            try await store.setClientChangeToken("second", zone: 1, client: "alice phone", asOf: 12)
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "second")
            // A modify that finished later but committed earlier leaves the later commit's token.
            try await store.setClientChangeToken("late", zone: 1, client: "alice phone", asOf: 11)
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "second")
            // One that changed nothing (a retried delete) at the same point is the last one seen.
            try await store.setClientChangeToken("retried", zone: 1, client: "alice phone", asOf: 12)
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "retried")
            #expect(try await store.clientChangeToken(zone: 1, client: "alice laptop") == "other")
            #expect(try await store.clientChangeToken(zone: 2, client: "alice phone") == nil, "another incarnation")
        }
    }

    @Test("deleting a zone drops its tokens", arguments: StoreKind.backEnds)
    func dropsWithTheZone(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let zone = ZoneKey(database: DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice"), name: "Trips")
            let made = try await store.createZone(zone, atomic: true)
            try await store.setClientChangeToken("kept", zone: made.id, client: "alice phone", asOf: made.lastSeq)
            #expect(try await store.clientChangeToken(zone: made.id, client: "alice phone") == "kept")
            _ = try await store.deleteZone(zone, reason: .deleted)
            #expect(try await store.clientChangeToken(zone: made.id, client: "alice phone") == nil)
        }
    }
}
