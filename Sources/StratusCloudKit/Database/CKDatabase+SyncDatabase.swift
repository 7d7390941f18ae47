import Foundation
import NIOCore
import StratusModel

/// The database is what ``CKSyncEngine`` calls over the server: its own API, and the push
/// listener (a webcourier long-poll of Stratus's feed).
extension CKDatabase: SyncDatabase {
    package var holdsAccount: Bool { container.transport?.webAuthToken != nil }

    package func userRecordID() async throws -> CKRecord.ID {
        try await container.userRecordID()
    }

    package func databaseChanges(since changeToken: CKServerChangeToken?) async throws -> SyncDatabaseChanges {
        try await databaseChanges(since: changeToken, resultsLimit: nil)
    }

    package func recordZoneChanges(inZoneWith zoneID: CKRecordZone.ID, since changeToken: CKServerChangeToken?, resultsLimit: Int?) async throws
        -> SyncZoneChanges
    {
        try await recordZoneChanges(inZoneWith: zoneID, since: changeToken, desiredKeys: nil, resultsLimit: resultsLimit)
    }

    /// Long-polls a push token's webcourier feed (Stratus's paged feed: the URL as given answers
    /// Apple's courier payload, one at a time) and calls `pushed` whenever it names this
    /// database; after a failure it waits a second on `clock` and polls again.
    package func listenForPushes(clock: SyncClock, while listening: @escaping @Sendable () -> Bool, pushed: @escaping @Sendable () -> Void) async {
        var url: String?
        var cursor: String?
        while !Task.isCancelled, listening() {
            do {
                if url == nil {
                    let created = try await container.post("tokens/create", PushTokenRequest(), as: PushTokenResponse.self)
                    url = created.webcourierURL
                }
                guard let feedURL = url, let transport = container.transport else { return }
                var poll = feedURL + (feedURL.contains("?") ? "&" : "?") + "format=stratus&timeout=10"
                if let cursor { poll += "&cursor=\(cursor)" }
                let feed = try await transport.get(url: poll, as: NotificationFeed.self, timeout: .seconds(20))
                cursor = feed.cursor
                if SyncRules.concernsDatabase(feed.notifications, scope: databaseScope) { pushed() }
            } catch {
                try? await clock.sleep(seconds: 1)
            }
        }
    }
}
