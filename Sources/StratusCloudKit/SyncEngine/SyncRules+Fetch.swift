import Foundation
import StratusModel

/// What a fetch makes of the server's answers: a database page and a zone page applied to the
/// state, a zone page's records in the order delivered, and a push that concerns the engine's
/// database.
extension SyncRules {
    /// A database change page applied to the state: a deleted zone's token and unfetched mark
    /// are forgotten, a modified zone is remembered as unfetched (once, in the feed's order, so a
    /// fetch cut short resumes it), and the database token moves to the page's.
    static func apply(
        databasePage modifications: [CKRecordZone.ID], deletions: [CKRecordZone.ID], changeToken: String,
        to stored: inout CKSyncEngine.State.Serialization
    ) {
        for zoneID in deletions { forget(zoneID, in: &stored) }
        for zoneID in modifications {
            let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
            if !stored.unfetchedZones.contains(zone) { stored.unfetchedZones.append(zone) }
        }
        stored.databaseToken = changeToken
    }

    /// A zone that went (in the database feed, or found gone when fetched): its token and its
    /// unfetched mark are forgotten.
    static func forget(_ zoneID: CKRecordZone.ID, in stored: inout CKSyncEngine.State.Serialization) {
        let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
        stored.zoneTokens[zone.key] = nil
        stored.unfetchedZones.removeAll { $0 == zone }
    }

    /// A zone page applied to the state: the zone's token moves to the page's, and a zone with
    /// nothing more coming is no longer unfetched.
    static func apply(
        zonePage changeToken: String, moreComing: Bool, of zoneID: CKRecordZone.ID, to stored: inout CKSyncEngine.State.Serialization
    ) {
        let zone = CKSyncEngine.State.Serialization.Zone(zoneID)
        stored.zoneTokens[zone.key] = changeToken
        if !moreComing { stored.unfetchedZones.removeAll { $0 == zone } }
    }

    /// A zone page's records as the engine delivers them — the oldest change first, by name
    /// within one moment — and those that did not arrive, with why (``verdict(forPage:)`` says
    /// what they mean for the zone's token).
    static func arrivals(
        _ results: [CKRecord.ID: Result<CKDatabase.RecordZoneChange.Modification, any Error>]
    ) -> (modifications: [CKDatabase.RecordZoneChange.Modification], failures: [CKRecord.ID: CKError]) {
        var modifications: [CKDatabase.RecordZoneChange.Modification] = []
        var failures: [CKRecord.ID: CKError] = [:]
        for (id, result) in results {
            switch result {
            case .success(let modification): modifications.append(modification)
            case .failure(let error): failures[id] = CKError.wrapping(error)
            }
        }
        modifications.sort {
            ($0.record.modificationDate ?? .distantPast, $0.record.recordID.recordName) < ($1.record.modificationDate ?? .distantPast, $1.record.recordID.recordName)
        }
        return (modifications, failures)
    }

    /// Whether pushed notifications call for a fetch of the database in `scope`: one names it,
    /// or notifications were dropped from the feed (the pruned marker), so anything may have
    /// changed.
    static func concernsDatabase(_ notifications: [PushNotification], scope: CKDatabase.Scope) -> Bool {
        let wire = scope.wire
        return notifications.contains { $0.databaseScope == wire || $0.isPruned }
    }
}
