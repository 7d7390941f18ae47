import Synchronization
import StratusStore

/// Makes sure every private database has its `_defaultZone`, creating it on first use and
/// remembering which databases have one so later requests skip the check.
final class DefaultZones: Sendable {
    private let known = Mutex<Set<DatabaseKey>>([])
    private let store: any RecordStore

    init(store: any RecordStore) {
        self.store = store
    }

    func ensure(in database: DatabaseKey) async throws(StoreError) {
        if known.withLock({ $0.contains(database) }) { return }
        _ = try await store.createZone(ZoneKey(database: database, name: "_defaultZone"), atomic: false)
        _ = known.withLock { $0.insert(database) }
    }
}
