import StratusStore
import Testing

/// The console's timeline as every store keeps it: appended in order, trimmed to the newest.
@Suite("Activity store")
struct ActivityStoreTests {
    @Test("the timeline keeps the newest entries, oldest first", arguments: StoreKind.backEnds)
    func keepsTheNewest(kind: StoreKind) async throws {
        try await kind.withStore { store in
            #expect(try await store.recentActivity(limit: 10).isEmpty)
            try await store.appendActivity(["a", "b"], keep: 3)
            try await store.appendActivity(["c", "d", "e"], keep: 3)
            #expect(try await store.recentActivity(limit: 10) == ["c", "d", "e"])
            #expect(try await store.recentActivity(limit: 2) == ["d", "e"])
        }
    }
}
