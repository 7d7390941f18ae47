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

    public let capacity: Int
    private let state: Mutex<State>

    private struct State {
        var entries: [ActivityEntry] = []
        /// Where the next entry goes once the ring is full.
        var oldest = 0
        var sequence: Int64 = 0
    }

    public init(capacity: Int = 2_000) {
        self.capacity = max(1, capacity)
        self.state = Mutex(State())
    }

    /// Adds an entry (its sequence is assigned here) and returns that sequence.
    @discardableResult
    public func record(_ entry: ActivityEntry) -> Int64 {
        state.withLock { state in
            state.sequence += 1
            var entry = entry
            entry.sequence = state.sequence
            if state.entries.count < capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.oldest] = entry
                state.oldest = (state.oldest + 1) % capacity
            }
            return state.sequence
        }
    }

    /// Entries the filter admits, newest first, at most `filter.limit`.
    public func entries(_ filter: Filter) -> ActivityResponse {
        state.withLock { state in
            var found: [ActivityEntry] = []
            let count = state.entries.count
            // Newest first: walk the ring backwards from the entry before `oldest`.
            for step in 0..<count where found.count < filter.limit {
                let entry = state.entries[(state.oldest - 1 - step + 2 * count) % count]
                if entry.sequence <= filter.after { break }
                if filter.admits(entry) { found.append(entry) }
            }
            return ActivityResponse(entries: found, latest: state.sequence)
        }
    }
}
