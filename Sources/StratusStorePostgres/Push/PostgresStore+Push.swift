import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Subscriptions, push tokens and the shared-database audience in PostgreSQL: the SQLite store's
/// rows and rules. Subscription bodies are JSON text, as the SQLite store keeps them.
extension PostgresStore: PushStore {
    // MARK: - Subscriptions

    public func modifySubscriptions(
        _ changes: [SubscriptionChange], of subscriber: SubscriberKey
    ) async throws(StoreError) -> [SubscriptionChangeOutcome] {
        let bodies = try changes.map { change throws(StoreError) -> String? in
            switch change {
            case .create(let subscription), .update(let subscription): try Self.encodeJSON(subscription)
            case .delete: nil
            }
        }
        let (container, environment, scope, user) = (subscriber.container, subscriber.environment.rawValue, subscriber.scope.rawValue, subscriber.user)
        return try await write { tx in
            // A row read here is locked until commit, so two instances changing it take turns.
            func existing(_ id: String) async throws -> Subscription? {
                try await tx.first("""
                    SELECT body FROM subscriptions WHERE container = \(container) AND environment = \(environment)
                        AND scope = \(scope) AND user_record_name = \(user) AND subscription_id = \(id) FOR UPDATE
                    """) { try $0.decode(String.self) }.flatMap { try? JSONDecoder().decode(Subscription.self, from: Data($0.utf8)) }
            }
            var outcomes: [SubscriptionChangeOutcome] = []
            for (change, body) in zip(changes, bodies) {
                switch change {
                case .create(let subscription):
                    // Inserted only when the ID is free, even against another instance's create.
                    let inserted = try await tx.execute("""
                        INSERT INTO subscriptions (container, environment, scope, user_record_name, subscription_id, body)
                        VALUES (\(container), \(environment), \(scope), \(user), \(subscription.subscriptionID), \(body))
                        ON CONFLICT DO NOTHING RETURNING 1
                        """)
                    outcomes.append(inserted == 1 ? .saved(subscription) : .exists)
                case .update(let subscription):
                    let id = subscription.subscriptionID
                    guard try await existing(id) != nil else { outcomes.append(.notFound); continue }
                    try await tx.execute("""
                        INSERT INTO subscriptions (container, environment, scope, user_record_name, subscription_id, body)
                        VALUES (\(container), \(environment), \(scope), \(user), \(id), \(body))
                        ON CONFLICT (container, environment, scope, user_record_name, subscription_id) DO UPDATE SET body = EXCLUDED.body
                        """)
                    outcomes.append(.saved(subscription))
                case .delete(let id):
                    guard let subscription = try await existing(id) else { outcomes.append(.notFound); continue }
                    try await tx.execute("""
                        DELETE FROM subscriptions WHERE container = \(container) AND environment = \(environment)
                            AND scope = \(scope) AND user_record_name = \(user) AND subscription_id = \(id)
                        """)
                    outcomes.append(.deleted(subscription))
                }
            }
            return outcomes
        }
    }

    public func subscriptions(of subscriber: SubscriberKey) async throws(StoreError) -> [Subscription] {
        let bodies = try await all(query("""
            SELECT body FROM subscriptions
            WHERE container = \(subscriber.container) AND environment = \(subscriber.environment.rawValue)
                AND scope = \(subscriber.scope.rawValue) AND user_record_name = \(subscriber.user)
            ORDER BY subscription_id
            """)) { try $0.decode(String.self) }
        return try Self.decodeJSON(bodies, as: Subscription.self)
    }

    public func subscriptions(
        container: String, environment: ContainerEnvironment, scope: DatabaseScope, users: [String]?
    ) async throws(StoreError) -> [StoredSubscription] {
        if let users, users.isEmpty { return [] }
        let rows = try await all(query("""
            SELECT user_record_name, body FROM subscriptions
            WHERE container = \(container) AND environment = \(environment.rawValue) AND scope = \(scope.rawValue)
                AND (\(users == nil) OR user_record_name = ANY(\(users ?? [])))
            """)) { try $0.decode((String, String).self) }
        let subscriptions = try Self.decodeJSON(rows.map(\.1), as: Subscription.self)
        return zip(rows, subscriptions).map { row, subscription in
            StoredSubscription(
                subscriber: SubscriberKey(container: container, environment: environment, scope: scope, user: row.0), subscription: subscription
            )
        }
    }

    public func deleteSubscriptions(_ subscriptions: [StoredSubscription]) async throws(StoreError) {
        guard !subscriptions.isEmpty else { return }
        try await write { tx in
            for stored in subscriptions {
                let key = stored.subscriber
                try await tx.execute("""
                    DELETE FROM subscriptions WHERE container = \(key.container) AND environment = \(key.environment.rawValue)
                        AND scope = \(key.scope.rawValue) AND user_record_name = \(key.user)
                        AND subscription_id = \(stored.subscription.subscriptionID)
                    """)
            }
        }
    }

    public func sharedAudience(of zone: ZoneKey, changedAfter seq: Int64) async throws(StoreError) -> [SharedAudienceMember] {
        try await read { tx in
            guard let stored = try await Self.fetchZone(zone, in: tx) else { return [] }
            return try await tx.all("""
                SELECT user_record_name, visible, seq > \(seq) FROM shared_zone_feed
                WHERE zone_id = \(stored.id) AND (visible OR seq > \(seq))
                """) { row in
                let (user, visible, changed) = try row.decode((String, Bool, Bool).self)
                return SharedAudienceMember(user: user, visible: visible, accessChanged: changed)
            }
        }
    }

    // MARK: - Tokens

    public func createPushToken(_ token: StoredPushToken) async throws(StoreError) {
        try await query("""
            INSERT INTO push_tokens (token, container, environment, apns_environment, user_record_name, device_id, start_position)
            VALUES (\(token.token), \(token.container), \(token.environment.rawValue), \(token.apnsEnvironment), \(token.user),
                    \(token.deviceID), \(token.startID))
            """)
    }

    public func registerPushToken(_ token: String, user: String, deviceID: String?) async throws(StoreError) -> Bool {
        try await first(query("""
            UPDATE push_tokens SET user_record_name = \(user), device_id = coalesce(\(deviceID), device_id) WHERE token = \(token)
            RETURNING 1::INT
            """)) { _ in true } ?? false
    }

    public func advancePushToken(_ token: String, through position: Int64) async throws(StoreError) -> Bool {
        try await first(query("""
            UPDATE push_tokens SET start_position = \(position) WHERE token = \(token) AND start_position < \(position) RETURNING 1::INT
            """)) { _ in true } ?? false
    }

    public func pushToken(_ token: String) async throws(StoreError) -> StoredPushToken? {
        let row = try await first(query("""
            SELECT token, container, environment, apns_environment, user_record_name, device_id, start_position
            FROM push_tokens WHERE token = \(token)
            """)) { try $0.decode((String, String, String, String, String?, String?, Int64).self) }
        guard let row, let environment = ContainerEnvironment(rawValue: row.2) else { return nil }
        return StoredPushToken(
            token: row.0, container: row.1, environment: environment, apnsEnvironment: row.3, user: row.4, deviceID: row.5, startID: row.6
        )
    }

    // MARK: - JSON bodies

    /// JSON text of a value, as the store keeps bodies.
    static func encodeJSON<T: Encodable>(_ value: T) throws(StoreError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw StoreError(.invalid, "cannot encode \(T.self): \(error)")
        }
    }

    static func decodeJSON<T: Decodable>(_ bodies: [String], as type: T.Type) throws(StoreError) -> [T] {
        let decoder = JSONDecoder()
        do {
            return try bodies.map { try decoder.decode(T.self, from: Data($0.utf8)) }
        } catch {
            throw StoreError(.failure, "a stored \(T.self) does not decode: \(error)")
        }
    }
}
