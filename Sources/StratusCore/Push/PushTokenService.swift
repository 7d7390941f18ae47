import Foundation
import StratusModel
import StratusStore

/// tokens/create and tokens/register, and the feed a token's webcourier URL serves.
///
/// A token's feed is its account's notifications in the token's container environment, minus
/// those caused by the token's own device, read from a cursor (a feed position). A reader
/// whose cursor fell behind the feed's retention gets one notification with `isPruned` first.
/// Deliveries to one token are coalesced as APNs coalesces pushes: a token is answered at most
/// once per ``TokenPacing/interval``; what arrives meanwhile goes in the next answer.
public struct PushTokenService: Sendable {
    let store: any PushStore
    let hub: any NotificationHub
    let recent: RecentFeeds
    let pacing: TokenPacing
    /// Tokens as read, so a poll costs no read to find its token (registering drops the entry).
    let known = KnownTokens()
    let configuration: CoreConfiguration
    /// Tells instances sharing the store that a token changed.
    let relay: InstanceRelay

    /// Notifications answered per poll.
    static let pageSize = 500

    /// Makes a token, bound to the caller (when signed in) and the request's device. One made
    /// with the API token alone is allowed (CloudKit documents no user for tokens/create): it has
    /// no feed until tokens/register binds it, and its polls are held to their deadline.
    /// - Parameter webcourierURL: the URL that serves a token's feed (the server knows its host).
    public func create(
        _ request: PushTokenRequest, scope: RequestScope, webcourierURL: (String) -> String
    ) async throws(CoreError) -> PushTokenResponse {
        let ref = scope.database
        let environment = try apnsEnvironment(request)
        return try await attempt { () async throws(StoreError) in
            let token = StoredPushToken(
                token: Secrets.hexToken(), container: ref.container, environment: ref.environment,
                apnsEnvironment: environment, user: scope.caller.userRecordName, deviceID: scope.deviceID,
                startID: try await store.lastNotificationPosition()
            )
            try await store.createPushToken(token)
            return token
        }.response(webcourierURL)
    }

    /// Binds a token to the signed-in caller (and the request's device).
    /// - Throws: `NOT_FOUND` for a token never created here, `BAD_REQUEST` without one.
    public func register(_ request: PushTokenRequest, scope: RequestScope) async throws(CoreError) {
        guard let user = scope.caller.userRecordName else { throw configuration.authenticationRequired(scope) }
        _ = try apnsEnvironment(request)
        guard let token = request.apnsToken, !token.isEmpty else { throw CoreError.badRequest("apnsToken is required") }
        let stored = try await attempt { () async throws(StoreError) in try await store.pushToken(token) }
        guard let stored, stored.container == scope.database.container, stored.environment == scope.database.environment else {
            throw CoreError(.notFound, "no push token '\(token)' was created in this container environment")
        }
        _ = try await attempt { () async throws(StoreError) in
            try await store.registerPushToken(stored.token, user: user, deviceID: scope.deviceID)
        }
        known.forget(stored.token)
        relay.announce(.tokens, stored.token)
    }

    /// Ends every held poll now (empty answers) and every later one at once: the server is stopping.
    public func closeFeeds() { hub.close() }

    /// Whether ``closeFeeds()`` was called.
    public var isClosed: Bool { hub.isClosed }

    /// Runs a store call, translating its failure; one cut short because the server is shutting
    /// down (the poll was cancelled) is a retryable 503, the reconnect resumes from the cursor.
    func attempt<T>(_ body: () async throws(StoreError) -> T) async throws(CoreError) -> T {
        do {
            return try await CoreError.translating(body)
        } catch {
            if Task.isCancelled { throw CoreError(.tryAgainLater, "the server is shutting down; poll again", retryAfter: 1) }
            throw error
        }
    }

    /// The notification that stands for those dropped from a feed.
    func pruned(_ token: StoredPushToken, through position: Int64) -> PushNotification {
        PushNotification(
            notificationID: "pruned-\(position)", notificationType: .database, subscriptionID: nil,
            containerIdentifier: token.container, environment: token.environment, databaseScope: .private, isPruned: true,
            timestamp: configuration.now()
        )
    }

    private func apnsEnvironment(_ request: PushTokenRequest) throws(CoreError) -> String {
        let value = request.apnsEnvironment ?? "development"
        guard value == "development" || value == "production" else {
            throw CoreError.badRequest("apnsEnvironment must be development or production")
        }
        return value
    }
}

extension StoredPushToken {
    func response(_ webcourierURL: (String) -> String) -> PushTokenResponse {
        PushTokenResponse(apnsEnvironment: apnsEnvironment, apnsToken: token, webcourierURL: webcourierURL(token))
    }
}
