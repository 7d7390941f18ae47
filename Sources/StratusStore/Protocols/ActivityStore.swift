/// The console's timeline kept across restarts: entries as the server encoded them, oldest
/// first, bounded (a store keeps only the newest `keep` when it appends).
public protocol ActivityStore: Sendable {
    /// Appends entries (one JSON document each) and trims the timeline to its newest `keep`.
    func appendActivity(_ entries: [String], keep: Int) async throws(StoreError)
    /// The newest `limit` entries, oldest first.
    func recentActivity(limit: Int) async throws(StoreError) -> [String]
}
