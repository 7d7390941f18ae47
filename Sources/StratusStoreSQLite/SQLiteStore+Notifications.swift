import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    public func appendNotifications(
        _ notifications: [NewNotification], retention: NotificationRetention, now: Int64
    ) async throws(StoreError) -> Int64 {
        let bodies = try notifications.map { item throws(StoreError) in try StoredNotification.encode(item.notification) }
        return try await write { db in
            let insert = try db.cachedStatement(
                sql: """
                    INSERT INTO notifications (container, environment, recipient, origin_device, created_at, body)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            )
            var feeds = Set<FeedKey>()
            for (item, body) in zip(notifications, bodies) {
                try insert.execute(arguments: [
                    item.container, item.environment.rawValue, item.recipient, item.originDevice, now, body,
                ])
                feeds.insert(FeedKey(recipient: item.recipient, container: item.container, environment: item.environment.rawValue))
            }
            let last = db.lastInsertedRowID
            for feed in feeds { try SQLiteStore.trim(feed, retention: retention, now: now, in: db) }
            return last
        }
    }

    public func notifications(for token: StoredPushToken, after position: Int64, limit: Int) async throws(StoreError) -> NotificationPage {
        guard let user = token.user else { return NotificationPage(entries: [], prunedThrough: 0) }
        return try await read { db in
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT position, body FROM notifications
                    WHERE recipient = ? AND container = ? AND environment = ? AND position > ?
                        AND (origin_device IS NULL OR ? IS NULL OR origin_device <> ?)
                    ORDER BY position LIMIT ?
                    """,
                arguments: [user, token.container, token.environment.rawValue, position, token.deviceID, token.deviceID, limit]
            )
            let entries = try rows.map { row -> (id: Int64, notification: PushNotification) in
                let id: Int64 = row[0]
                let body: String = row[1]
                var notification = try StoredNotification.decode(body)
                notification.notificationID = String(id)
                return (id, notification)
            }
            let pruned = try Int64.fetchOne(
                db,
                sql: "SELECT pruned_through FROM notification_horizons WHERE recipient = ? AND container = ? AND environment = ?",
                arguments: [user, token.container, token.environment.rawValue]
            )
            return NotificationPage(entries: entries, prunedThrough: pruned ?? 0)
        }
    }

    public func lastNotificationPosition() async throws(StoreError) -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'notifications'") ?? 0
        }
    }

    /// One recipient's feed in one container environment.
    private struct FeedKey: Hashable {
        var recipient: String
        var container: String
        var environment: String
    }

    /// Drops a feed's notifications beyond the newest `perRecipient` and those older than `age`,
    /// raising its horizon so a reader behind it is told its feed was pruned.
    private static func trim(_ feed: FeedKey, retention: NotificationRetention, now: Int64, in db: Database) throws {
        let key: [any DatabaseValueConvertible] = [feed.recipient, feed.container, feed.environment]
        let filter = "recipient = ? AND container = ? AND environment = ?"
        // Cached statements: this runs on every append, under the writer.
        let overflow = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT position FROM notifications WHERE \(filter) ORDER BY position DESC LIMIT 1 OFFSET ?"),
            arguments: StatementArguments(key + [retention.perRecipient])
        )
        let expired = try Int64.fetchOne(
            db.cachedStatement(sql: "SELECT max(position) FROM notifications WHERE \(filter) AND created_at < ?"),
            arguments: StatementArguments(key + [now - retention.age])
        )
        guard let horizon = [overflow, expired].compactMap({ $0 }).max() else { return }
        try db.cachedStatement(sql: "DELETE FROM notifications WHERE \(filter) AND position <= ?")
            .execute(arguments: StatementArguments(key + [horizon]))
        try db.cachedStatement(
            sql: """
                INSERT INTO notification_horizons (recipient, container, environment, pruned_through) VALUES (?, ?, ?, ?)
                ON CONFLICT (recipient, container, environment) DO UPDATE SET pruned_through = max(pruned_through, excluded.pruned_through)
                """
        ).execute(arguments: StatementArguments(key + [horizon]))
    }

    /// JSON text of a value, as the store keeps bodies.
    static func encodeJSON<T: Encodable>(_ value: T) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw StoreError(.invalid, "cannot encode \(T.self): \(error)")
        }
    }
}
