import Foundation
import StratusModel

/// What a fetch makes of the server's answers: a database page applied to the state, and a push
/// that concerns the engine's database.
extension SyncRules {
    /// A database change page applied to the state: a deleted zone's token and unfetched mark
    /// are forgotten, a modified zone is remembered as unfetched (once, in the feed's order, so a
    /// fetch cut short resumes it), and the database token moves to the page's.
    static func apply(
        databasePage modifications: [CKRecordZone.ID], deletions: [CKRecordZone.ID], changeToken: String,
        to stored: inout CKSyncEngine.State.Serialization
    ) {
        for zoneID in deletions {
            let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
            stored.zoneTokens[zone.key] = nil
            stored.unfetchedZones.removeAll { $0 == zone }
        }
        for zoneID in modifications {
            let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
            if !stored.unfetchedZones.contains(zone) { stored.unfetchedZones.append(zone) }
        }
        stored.databaseToken = changeToken
    }

    /// Whether pushed notifications call for a fetch of the database in `scope`: one names it,
    /// or notifications were dropped from the feed (the pruned marker), so anything may have
    /// changed.
    static func concernsDatabase(_ notifications: [PushNotification], scope: CKDatabase.Scope) -> Bool {
        let wire = scope.wire
        return notifications.contains { $0.databaseScope == wire || $0.isPruned }
    }
}
