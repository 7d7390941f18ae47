import StratusModel
import Synchronization

/// The newest commits and fired faults of every container, in memory: what the admin API's
/// `activity` and the console's timeline read.
///
/// A ring of ``capacity`` entries: recording costs one short lock and never touches the store,
/// so it adds nothing to the write path. One process's view (see the PostgreSQL issue for many).
public final class ActivityLog: Sendable {
    /// What a reader asks for: entries after `after`, optionally of one account or zone.
    public struct Filter: Sendable, Hashable {
        public var container: String?
        public var environment: ContainerEnvironment?
        public var userRecordName: String?
        public var zoneName: String?
        public var after: Int64
        public var limit: Int

        public init(
            container: String? = nil, environment: ContainerEnvironment? = nil, userRecordName: String? = nil, zoneName: String? = nil,
            after: Int64 = 0, limit: Int = 100
        ) {
            self.container = container
            self.environment = environment
            self.userRecordName = userRecordName
            self.zoneName = zoneName
            self.after = after
            self.limit = limit
        }

        func admits(_ entry: ActivityEntry) -> Bool {
            if let container, container != entry.container { return false }
            if let environment, environment != entry.environment { return false }
            if let userRecordName, userRecordName != entry.userRecordName, userRecordName != entry.zoneID?.ownerRecordName { return false }
            if let zoneName, zoneName != entry.zoneID?.zoneName { return false }
            return entry.sequence > after
        }
    }

    public var capacity: Int { state.withLock { $0.capacity } }
    private let state: Mutex<RingBuffer<ActivityEntry>>

    public init(capacity: Int = 2_000) {
        self.state = Mutex(RingBuffer(capacity: capacity))
    }

    /// Adds an entry (its sequence is assigned here) and returns that sequence.
    @discardableResult
    public func record(_ entry: ActivityEntry) -> Int64 {
        state.withLock { ring in
            ring.append { sequence in
                var entry = entry
                entry.sequence = sequence
                return entry
            }
        }
    }

    /// Entries the filter admits, newest first, at most `filter.limit`.
    public func entries(_ filter: Filter) -> ActivityResponse {
        state.withLock { ring in
            let found = ring.newestFirst(limit: filter.limit) { entry in entry.sequence <= filter.after ? nil : filter.admits(entry) }
            return ActivityResponse(entries: found, latest: ring.latest)
        }
    }
}
