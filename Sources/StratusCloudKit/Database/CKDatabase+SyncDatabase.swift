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

    /// Long-polls a push token's webcourier feed (Stratus's paged feed, not Apple's courier
    /// payload) and calls `pushed` whenever it names this database; after a failure it waits a
    /// second (on `clock`, real time on a running one) and polls again.
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
                // A device's URL asks for the feed already (`?format=stratus`); else ask for it.
                var poll = feedURL.contains("format=stratus") ? feedURL + "&timeout=10" : feedURL + (feedURL.contains("?") ? "&" : "?") + "format=stratus&timeout=10"
                if let cursor { poll += "&cursor=\(cursor)" }
                let feed = try await transport.get(url: poll, as: NotificationFeed.self, timeout: .seconds(20))
                cursor = feed.cursor
                if SyncRules.concernsDatabase(feed.notifications, scope: databaseScope) { pushed() }
            } catch {
                // A second of real time (a compressed clock would hammer a server that is down).
                try? await clock.sleep(seconds: 0, plus: .seconds(1))
            }
        }
    }
}
