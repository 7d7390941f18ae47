import Foundation
import StratusModel

/// Automatic mode: the device syncs on push, as an app with CKSyncEngine or
/// NSPersistentCloudKitContainer does — no test calls ``SimulatedDevice/sync()``.
///
/// The device registers a push token, long-polls its webcourier URL and fetches whenever
/// notifications arrive; a dropped connection reconnects from the last cursor, so nothing sent
/// meanwhile is missed. Local saves schedule a send, as the container exports after a save.
extension SimulatedDevice {
    /// Whether automatic mode is on.
    public var isSyncingAutomatically: Bool { pushListener != nil }

    /// Turns automatic mode on: syncs once (which also saves the engines' database
    /// subscriptions), then listens. Returns once the device is listening.
    public func startAutomaticSync() async throws {
        guard pushListener == nil else { return }
        let container = try requireContainer()
        let token = try await container.registerForPush()
        try await sync()
        pushListener = Task { [weak self] in
            var cursor: String?
            while !Task.isCancelled {
                do {
                    let feed = try await container.notifications(at: token.webcourierURL, after: cursor)
                    cursor = feed.cursor
                    guard let self else { return }
                    guard !feed.notifications.isEmpty else { continue }
                    await self.received(feed.notifications.count)
                    try await self.sync()
                } catch {
                    // A dropped poll or a failed fetch: reconnect from the same cursor shortly.
                    try? await Task.sleep(for: .milliseconds(200))
                }
            }
        }
    }

    /// Turns automatic mode off; ``sync()`` still works by hand.
    public func stopAutomaticSync() {
        pushListener?.cancel()
        pushListener = nil
    }

    func received(_ count: Int) {
        notificationsReceived += count
    }

    /// In automatic mode, a local change is sent soon (saves made together go in one sync).
    func scheduleSyncIfAutomatic() {
        guard pushListener != nil, !syncScheduled else { return }
        syncScheduled = true
        Task {
            self.clearScheduled()
            try? await self.sync()
        }
    }

    private func clearScheduled() { syncScheduled = false }
}
