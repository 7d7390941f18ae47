import StratusModel
import StratusStore

/// Apple's courier, beside Stratus's own feed: one APNs-shaped payload per answer, consumed on
/// delivery (the token's start moves past it, so the next poll gets the next one and nothing is
/// replayed). Stratus's feed instead answers pages from a cursor the client keeps and may replay.
extension PushTokenService {
    /// The first notification of `page` as Apple's courier delivers it, marked consumed for
    /// `token`; `nil` for an empty page, or when another poll consumed it first.
    /// - Throws: `NOT_FOUND` for an unknown token; a store failure (nothing consumed then).
    public func consumeFirst(of page: FeedPage, token: String) async throws(CoreError) -> ApplePushPayload? {
        guard let first = page.notifications.first?.notification else { return nil }
        let position = Self.position(of: first) ?? Int64(page.cursor) ?? 0
        let advanced = try await attempt { () async throws(StoreError) in try await store.advancePushToken(token, through: position) }
        // Another poll delivered it meanwhile: never the same notification twice.
        guard advanced else { return nil }
        if var known = known.token(token) {
            known.startID = max(known.startID, position)
            self.known.remember(known)
        }
        relay.announce(.tokens, token)
        return ApplePushPayload(first)
    }

    /// A notification's feed position: its ID, or for the pruned stand-in the position it covers.
    static func position(of notification: PushNotification) -> Int64? {
        if let position = Int64(notification.notificationID) { return position }
        return notification.notificationID.split(separator: "-").last.flatMap { Int64($0) }
    }
}
