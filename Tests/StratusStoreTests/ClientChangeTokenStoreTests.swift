import StratusStore
import Testing

/// Client change tokens as every store keeps them: by zone incarnation and client, the last one
/// set standing.
@Suite("Client change token store")
struct ClientChangeTokenStoreTests {
    @Test("a token stands for its zone incarnation and client until the next one", arguments: StoreKind.backEnds)
    func keeps(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == nil)
            try await store.setClientChangeToken("first", zone: 1, client: "alice phone")
            try await store.setClientChangeToken("other", zone: 1, client: "alice laptop")
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "first")
            try await store.setClientChangeToken("second", zone: 1, client: "alice phone")
            #expect(try await store.clientChangeToken(zone: 1, client: "alice phone") == "second")
            #expect(try await store.clientChangeToken(zone: 1, client: "alice laptop") == "other")
            #expect(try await store.clientChangeToken(zone: 2, client: "alice phone") == nil, "another incarnation")
        }
    }
}
