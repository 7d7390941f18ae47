import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore: PushStore {
    // MARK: - Subscriptions

    public func modifySubscriptions(
        _ changes: [SubscriptionChange], of subscriber: SubscriberKey
    ) async throws(StoreError) -> [SubscriptionChangeOutcome] {
        let bodies = try changes.map { change throws(StoreError) -> String? in
            switch change {
            case .create(let subscription), .update(let subscription): try SQLiteStore.encodeJSON(subscription)
            case .delete: nil
            }
        }
        return try await write { db in
            let key: [any DatabaseValueConvertible] = [
                subscriber.container, subscriber.environment.rawValue, subscriber.scope.rawValue, subscriber.user,
            ]
            let match = "container = ? AND environment = ? AND scope = ? AND user_record_name = ? AND subscription_id = ?"
            func existing(_ id: String) throws -> Subscription? {
                try String.fetchOne(db, sql: "SELECT body FROM subscriptions WHERE \(match)", arguments: StatementArguments(key + [id]))
                    .flatMap { try? JSONDecoder().decode(Subscription.self, from: Data($0.utf8)) }
            }
            return try zip(changes, bodies).map { change, body -> SubscriptionChangeOutcome in
                switch change {
                case .create(let subscription), .update(let subscription):
                    let id = subscription.subscriptionID
                    let found = try existing(id) != nil
                    if case .create = change, found { return .exists }
                    if case .update = change, !found { return .notFound }
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO subscriptions (container, environment, scope, user_record_name, subscription_id, body)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """,
                        arguments: StatementArguments(key + [id, body])
                    )
                    return .saved(subscription)
                case .delete(let id):
                    guard let subscription = try existing(id) else { return .notFound }
                    try db.execute(sql: "DELETE FROM subscriptions WHERE \(match)", arguments: StatementArguments(key + [id]))
                    return .deleted(subscription)
                }
            }
        }
    }

    public func subscriptions(of subscriber: SubscriberKey) async throws(StoreError) -> [Subscription] {
        try await read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT body FROM subscriptions
                    WHERE container = ? AND environment = ? AND scope = ? AND user_record_name = ? ORDER BY subscription_id
                    """,
                arguments: [subscriber.container, subscriber.environment.rawValue, subscriber.scope.rawValue, subscriber.user]
            ).map { try JSONDecoder().decode(Subscription.self, from: Data($0.utf8)) }
        }
    }

    public func subscriptions(
        container: String, environment: ContainerEnvironment, scope: DatabaseScope, users: [String]?
    ) async throws(StoreError) -> [StoredSubscription] {
        if let users, users.isEmpty { return [] }
        return try await read { db in
            var sql = "SELECT user_record_name, body FROM subscriptions WHERE container = ? AND environment = ? AND scope = ?"
            var arguments: [any DatabaseValueConvertible] = [container, environment.rawValue, scope.rawValue]
            if let users {
                sql += " AND user_record_name IN (SELECT value FROM json_each(?))"
                arguments.append(String(decoding: try JSONEncoder().encode(users), as: UTF8.self))
            }
            return try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map { row in
                let user: String = row[0]
                let body: String = row[1]
                return StoredSubscription(
                    subscriber: SubscriberKey(container: container, environment: environment, scope: scope, user: user),
                    subscription: try JSONDecoder().decode(Subscription.self, from: Data(body.utf8))
                )
            }
        }
    }

    public func deleteSubscriptions(_ subscriptions: [StoredSubscription]) async throws(StoreError) {
        guard !subscriptions.isEmpty else { return }
        try await write { db in
            for stored in subscriptions {
                let key = stored.subscriber
                try db.execute(
                    sql: """
                        DELETE FROM subscriptions WHERE container = ? AND environment = ? AND scope = ?
                            AND user_record_name = ? AND subscription_id = ?
                        """,
                    arguments: [key.container, key.environment.rawValue, key.scope.rawValue, key.user, stored.subscription.subscriptionID]
                )
            }
        }
    }

    public func sharedAudience(of zone: ZoneKey, changedAfter seq: Int64) async throws(StoreError) -> [SharedAudienceMember] {
        try await read { db in
            guard let stored = try SQLiteStore.fetchZone(zone, in: db) else { return [] }
            return try Row.fetchAll(
                db,
                sql: """
                    SELECT user_record_name, visible, seq > ? FROM shared_zone_feed
                    WHERE zone_id = ? AND (visible = 1 OR seq > ?)
                    """,
                arguments: [seq, stored.id, seq]
            ).map { row in SharedAudienceMember(user: row[0], visible: row[1], accessChanged: row[2]) }
        }
    }

    // MARK: - Tokens

    public func createPushToken(_ token: StoredPushToken) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO push_tokens (token, container, environment, apns_environment, user_record_name, device_id, start_position)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    token.token, token.container, token.environment.rawValue, token.apnsEnvironment, token.user, token.deviceID,
                    token.startID,
                ]
            )
        }
    }

    public func registerPushToken(_ token: String, user: String, deviceID: String?) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE push_tokens SET user_record_name = ?, device_id = coalesce(?, device_id) WHERE token = ?",
                arguments: [user, deviceID, token]
            )
            return db.changesCount > 0
        }
    }

    public func advancePushToken(_ token: String, through position: Int64) async throws(StoreError) -> Bool {
        try await write { db in
            try db.execute(
                sql: "UPDATE push_tokens SET start_position = ? WHERE token = ? AND start_position < ?", arguments: [position, token, position]
            )
            return db.changesCount > 0
        }
    }

    public func pushToken(_ token: String) async throws(StoreError) -> StoredPushToken? {
        try await read { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT token, container, environment, apns_environment, user_record_name, device_id, start_position
                    FROM push_tokens WHERE token = ?
                    """,
                arguments: [token]
            ).flatMap { row in
                guard let environment = ContainerEnvironment(rawValue: row[2]) else { return nil }
                return StoredPushToken(
                    token: row[0], container: row[1], environment: environment, apnsEnvironment: row[3],
                    user: row[4], deviceID: row[5], startID: row[6]
                )
            }
        }
    }
}
