import StratusModel
import Synchronization

/// The newest commits and fired faults of every container, in memory: what the admin API's
/// `activity` and the console's timeline read.
///
/// A ring of ``capacity`` entries: recording costs one short lock and never touches the store,
/// so it adds nothing to the write path. ``ActivityJournal`` keeps it across restarts: it saves
/// what was recorded (``takeUnsaved()``) and puts the saved timeline back at start (``restore(_:)``).
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

    public var capacity: Int { state.withLock { $0.ring.capacity } }
    private let state: Mutex<State>
    /// Rung when an entry is recorded (for ``ActivityJournal``).
    let recorded: AsyncStream<Void>
    private let ring: AsyncStream<Void>.Continuation

    private struct State {
        var ring: RingBuffer<ActivityEntry>
        /// Entries recorded and not yet saved, oldest first: a save takes the newest ring's worth.
        var unsaved: [ActivityEntry] = []
    }

    public init(capacity: Int = 2_000) {
        self.state = Mutex(State(ring: RingBuffer(capacity: capacity)))
        (recorded, ring) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Adds an entry (its sequence is assigned here) and returns that sequence.
    @discardableResult
    public func record(_ entry: ActivityEntry) -> Int64 {
        let sequence = state.withLock { state in
            let sequence = state.ring.append { sequence in
                var entry = entry
                entry.sequence = sequence
                return entry
            }
            var saved = entry
            saved.sequence = sequence
            state.unsaved.append(saved)
            // Trimmed by the ring's worth at once: one by one, a full list would shift every
            // entry it holds on each record (2 % of a create's CPU).
            if state.unsaved.count >= 2 * state.ring.capacity { state.unsaved.removeFirst(state.ring.capacity) }
            return sequence
        }
        ring.yield()
        return sequence
    }

    /// The entries recorded since the last call, oldest first.
    func takeUnsaved() -> [ActivityEntry] {
        state.withLock { state in
            defer { state.unsaved = [] }
            return Array(state.unsaved.suffix(state.ring.capacity))
        }
    }

    /// Puts entries a save could not write back ahead of those recorded since, keeping the newest
    /// ring's worth.
    func putBack(_ entries: [ActivityEntry]) {
        state.withLock { state in
            state.unsaved = Array((entries + state.unsaved).suffix(state.ring.capacity))
        }
    }

    /// Puts a saved timeline (oldest first) back before whatever was recorded since start, all
    /// numbered again in that order.
    func restore(_ saved: [ActivityEntry]) {
        state.withLock { state in
            let since = state.ring.newestFirst(limit: state.ring.capacity) { _ in true }.reversed()
            var ring = RingBuffer<ActivityEntry>(capacity: state.ring.capacity)
            for entry in saved + since {
                _ = ring.append { sequence in
                    var entry = entry
                    entry.sequence = sequence
                    return entry
                }
            }
            state.ring = ring
        }
    }

    /// Entries the filter admits, newest first, at most `filter.limit`.
    public func entries(_ filter: Filter) -> ActivityResponse {
        state.withLock { state in
            let found = state.ring.newestFirst(limit: filter.limit) { entry in entry.sequence <= filter.after ? nil : filter.admits(entry) }
            return ActivityResponse(entries: found, latest: state.ring.latest)
        }
    }
}
