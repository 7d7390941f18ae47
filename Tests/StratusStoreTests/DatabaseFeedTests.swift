import StratusModel
import StratusStore
import Testing

/// The database change feed lists each zone once, as it is now: a zone deleted and made again
/// is its live zone, earlier incarnations never show, and a fetch without a token (and the pages
/// that continue it) lists no deletion — on every store.
@Suite("database feed: each zone once, as it is now")
struct DatabaseFeedTests {
    let database = DatabaseKey(container: "iCloud.test", environment: .development, scope: .private, owner: "_alice")

    func key(_ name: String) -> ZoneKey { ZoneKey(database: database, name: name) }

    @Test("a zone deleted and made again three times is one live entry", arguments: StoreKind.allCases)
    func pastLives(kind: StoreKind) async throws {
        try await kind.withStore { store in
            let start = try await store.currentSequence()
            for _ in 0..<3 {
                _ = try await store.createZone(key("Z"), atomic: true)
                _ = try await store.deleteZone(key("Z"))
            }
            let live = try await store.createZone(key("Z"), atomic: true)

            let first = try await store.databaseChanges(in: database, after: 0, deletionsAfter: nil, limit: 10)
            #expect(first.zones.map(\.id) == [live.id] && first.zones.allSatisfy { !$0.isDeleted })
            let since = try await store.databaseChanges(in: database, after: start, deletionsAfter: 0, limit: 10)
            #expect(since.zones.map(\.id) == [live.id] && since.zones.allSatisfy { !$0.isDeleted })

            // Deleted since the token: once, as deleted; without a token: not at all.
            let token = first.throughSeq
            let gone = try await store.deleteZone(key("Z"))
            let deleted = try await store.databaseChanges(in: database, after: token, deletionsAfter: 0, limit: 10)
            #expect(deleted.zones.map(\.id) == [gone.id] && deleted.zones.first?.isDeleted == true)
            let fromStart = try await store.databaseChanges(in: database, after: start, deletionsAfter: 0, limit: 10)
            #expect(fromStart.zones.map(\.id) == [gone.id], "earlier incarnations are never listed")
            let fresh = try await store.databaseChanges(in: database, after: 0, deletionsAfter: nil, limit: 10)
            #expect(fresh.zones.isEmpty)
        }
    }

    @Test("the pages that continue a fetch without a token list no earlier deletion", arguments: StoreKind.allCases)
    func firstFetchContinues(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(key("A"), atomic: true)
            _ = try await store.createZone(key("B"), atomic: true)
            _ = try await store.deleteZone(key("B"))
            _ = try await store.createZone(key("C"), atomic: true)

            let first = try await store.databaseChanges(in: database, after: 0, deletionsAfter: nil, limit: 1)
            #expect(first.zones.map(\.name) == ["A"] && first.moreComing)
            let current = try await store.currentSequence()
            #expect(first.deletionsAfter == current)
            // A deletion made while the fetch pages on is news to the device, and is listed.
            _ = try await store.deleteZone(key("C"))
            let rest = try await store.databaseChanges(in: database, after: first.throughSeq, deletionsAfter: first.deletionsAfter, limit: 10)
            #expect(rest.zones.map(\.name) == ["C"] && rest.zones.first?.isDeleted == true && !rest.moreComing)
            // A token's fetch lists every deletion after it.
            let token = try await store.databaseChanges(in: database, after: first.throughSeq, limit: 10)
            #expect(token.zones.map(\.name) == ["B", "C"])
        }
    }
}
