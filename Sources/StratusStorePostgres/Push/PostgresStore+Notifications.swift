import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Notification feeds in PostgreSQL. Positions come from one counter row, updated (and so
/// locked) by the appending transaction: positions are handed out, and become visible, in order
/// across instances, so a reader's cursor never passes a notification that commits later.
extension PostgresStore {
    public func appendNotifications(
        _ notifications: [NewNotification], retention: NotificationRetention, now: Int64
    ) async throws(StoreError) -> Int64 {
        let bodies = try notifications.map { item throws(StoreError) in try StoredNotification.encode(item.notification) }
        let rows = zip(notifications, bodies).map { item, body in
            NotificationRow(
                container: item.container, environment: item.environment.rawValue, recipient: item.recipient, originDevice: item.originDevice,
                body: body
            )
        }
        let json = try Self.encodeJSON(rows)
        let feeds = Set(rows.map { FeedRow(recipient: $0.recipient, container: $0.container, environment: $0.environment) })
        let count = Int64(rows.count)
        return try await write { tx in
            let last = try await tx.first(
                "UPDATE notification_sequence SET value = value + \(count) WHERE id = 1 RETURNING value"
            ) { try $0.decode(Int64.self) } ?? 0
            guard count > 0 else { return last }
            try await tx.execute("""
                INSERT INTO notifications (position, container, environment, recipient, origin_device, created_at, body)
                SELECT \(last - count) + n.ordinality, n.container, n.environment, n.recipient, n.origin_device, \(now), n.body
                FROM ROWS FROM (jsonb_to_recordset(CAST(\(json) AS jsonb))
                    AS (container TEXT, environment TEXT, recipient TEXT, origin_device TEXT, body TEXT))
                    WITH ORDINALITY AS n(container, environment, recipient, origin_device, body, ordinality)
                """)
            for feed in feeds { try await Self.trim(feed, retention: retention, now: now, in: tx) }
            return last
        }
    }

    public func notifications(for token: StoredPushToken, after position: Int64, limit: Int) async throws(StoreError) -> NotificationPage {
        guard let user = token.user else { return NotificationPage(entries: [], prunedThrough: 0) }
        let (container, environment, device) = (token.container, token.environment.rawValue, token.deviceID)
        return try await read { tx in
            let rows = try await tx.all("""
                SELECT position, body FROM notifications
                WHERE recipient = \(user) AND container = \(container) AND environment = \(environment) AND position > \(position)
                    AND (origin_device IS NULL OR \(device)::TEXT IS NULL OR origin_device <> \(device))
                ORDER BY position LIMIT \(limit)
                """) { try $0.decode((Int64, String).self) }
            let entries = try rows.map { id, body -> (id: Int64, notification: PushNotification) in
                var notification = try StoredNotification.decode(body)
                notification.notificationID = String(id)
                return (id, notification)
            }
            let pruned = try await tx.first("""
                SELECT pruned_through FROM notification_horizons
                WHERE recipient = \(user) AND container = \(container) AND environment = \(environment)
                """) { try $0.decode(Int64.self) }
            return NotificationPage(entries: entries, prunedThrough: pruned ?? 0)
        }
    }

    public func lastNotificationPosition() async throws(StoreError) -> Int64 {
        try await first(query("SELECT value FROM notification_sequence WHERE id = 1")) { try $0.decode(Int64.self) } ?? 0
    }

    /// One notification as JSON (keys in snake case, the columns' names): a batch is inserted in one statement.
    private struct NotificationRow: Encodable {
        var container: String
        var environment: String
        var recipient: String
        var originDevice: String?
        var body: String

        enum CodingKeys: String, CodingKey {
            case container, environment, recipient, body
            case originDevice = "origin_device"
        }
    }

    /// One recipient's feed in one container environment.
    private struct FeedRow: Hashable {
        var recipient: String
        var container: String
        var environment: String
    }

    /// Drops a feed's notifications beyond the newest `perRecipient` and those older than `age`,
    /// raising its horizon so a reader behind it is told its feed was pruned.
    private static func trim(_ feed: FeedRow, retention: NotificationRetention, now: Int64, in tx: PostgresTransaction) async throws {
        let (recipient, container, environment) = (feed.recipient, feed.container, feed.environment)
        let overflow = try await tx.first("""
            SELECT position FROM notifications WHERE recipient = \(recipient) AND container = \(container) AND environment = \(environment)
            ORDER BY position DESC LIMIT 1 OFFSET \(retention.perRecipient)
            """) { try $0.decode(Int64.self) }
        let expired = try await tx.first("""
            SELECT max(position) FROM notifications WHERE recipient = \(recipient) AND container = \(container)
                AND environment = \(environment) AND created_at < \(now - retention.age)
            """) { try $0.decode(Int64?.self) } ?? nil
        guard let horizon = [overflow, expired].compactMap({ $0 }).max() else { return }
        try await tx.execute("""
            DELETE FROM notifications WHERE recipient = \(recipient) AND container = \(container) AND environment = \(environment)
                AND position <= \(horizon)
            """)
        try await tx.execute("""
            INSERT INTO notification_horizons (recipient, container, environment, pruned_through)
            VALUES (\(recipient), \(container), \(environment), \(horizon))
            ON CONFLICT (recipient, container, environment)
                DO UPDATE SET pruned_through = greatest(notification_horizons.pruned_through, EXCLUDED.pruned_through)
            """)
    }
}
