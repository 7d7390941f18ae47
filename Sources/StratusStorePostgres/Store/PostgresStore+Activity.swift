import PostgresNIO
import StratusStore

/// The console's timeline in PostgreSQL: one table every instance appends to.
extension PostgresStore: ActivityStore {
    public func appendActivity(_ entries: [String], keep: Int) async throws(StoreError) {
        guard !entries.isEmpty else { return }
        try await write { tx in
            try await tx.execute("INSERT INTO activity (body) SELECT unnest(\(entries)::text[])")
            try await tx.execute("DELETE FROM activity WHERE position <= (SELECT max(position) FROM activity) - \(keep)")
        }
    }

    public func recentActivity(limit: Int) async throws(StoreError) -> [String] {
        try await all(query("SELECT body FROM (SELECT position, body FROM activity ORDER BY position DESC LIMIT \(limit)) r ORDER BY position")) {
            try $0.decode(String.self)
        }
    }
}
