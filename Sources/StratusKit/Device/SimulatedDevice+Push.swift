import Foundation
import StratusCloudKit
import StratusModel

/// Automatic mode: the device syncs as an app with CKSyncEngine or NSPersistentCloudKitContainer
/// does — no test calls ``SimulatedDevice/sync()``. Its engines run with `automaticallySync`:
/// each saves its database subscription, listens on a push token's webcourier and fetches when
/// notified, and sends soon after the device adds the changes of a local save. The device keeps
/// no listener of its own.
extension SimulatedDevice {
    /// Turns automatic mode on: syncs once by hand (which also saves the engines' database
    /// subscriptions), then hands syncing to the engines, made again from the state just saved.
    public func startAutomaticSync() async throws {
        guard !isSyncingAutomatically else { return }
        try await sync()
        isSyncingAutomatically = true
        try startEngines()
    }

    /// Turns automatic mode off; ``sync()`` still works by hand. The engines are made again from
    /// their saved state, syncing only when asked.
    public func stopAutomaticSync() {
        guard isSyncingAutomatically else { return }
        isSyncingAutomatically = false
        guard !engines.isEmpty else { return }
        do { try startEngines() } catch { engines = [:] }
    }

    /// In automatic mode, a local change is added to its engine's pending changes: the engine
    /// sends it soon (saves made together go in one send), as the container exports after a save.
    func scheduleSyncIfAutomatic() {
        guard isSyncingAutomatically else { return }
        for (scope, engine) in engines {
            do { try queueExports(scope, on: engine) } catch { log(scope, "queueFailed") }
        }
    }

    /// A fetch an engine started on its own (at launch or on a push), counted for tests and logs.
    func noteFetch(_ context: CKSyncEngine.FetchChangesContext, scope: DatabaseScope) {
        guard context.reason == .scheduled else { return }
        scheduledFetches += 1
        log(scope, "scheduledFetch")
    }
}
