import GRDB
import StratusStore

extension SQLiteStore: ActivityStore {
    public func appendActivity(_ entries: [String], keep: Int) async throws(StoreError) {
        guard !entries.isEmpty else { return }
        try await write { db in
            for body in entries {
                try db.cachedStatement(sql: "INSERT INTO activity (body) VALUES (?)").execute(arguments: [body])
            }
            try db.cachedStatement(sql: "DELETE FROM activity WHERE position <= (SELECT max(position) FROM activity) - ?")
                .execute(arguments: [keep])
        }
    }

    public func recentActivity(limit: Int) async throws(StoreError) -> [String] {
        try await read { db in
            try String.fetchAll(
                db, sql: "SELECT body FROM (SELECT position, body FROM activity ORDER BY position DESC LIMIT ?) ORDER BY position",
                arguments: [limit]
            )
        }
    }
}
