import StratusCloudKit

extension CKSyncEngine.Event {
    /// The event as a test's log names it: its case, with the account change's kind and the
    /// zone a zone fetch is about (`"willFetchRecordZoneChanges Notes"`), nothing that varies
    /// from run to run — so a test compares the order of what happened as a list of words.
    package var milestone: String {
        switch self {
        case .stateUpdate: "stateUpdate"
        case .accountChange(let change): "accountChange \(Self.milestone(change.changeType))"
        case .fetchedDatabaseChanges: "fetchedDatabaseChanges"
        case .fetchedRecordZoneChanges: "fetchedRecordZoneChanges"
        case .sentDatabaseChanges: "sentDatabaseChanges"
        case .sentRecordZoneChanges: "sentRecordZoneChanges"
        case .willFetchChanges: "willFetchChanges"
        case .willFetchRecordZoneChanges(let will): "willFetchRecordZoneChanges \(will.zoneID.zoneName)"
        case .didFetchRecordZoneChanges(let did): "didFetchRecordZoneChanges \(did.zoneID.zoneName)"
        case .didFetchChanges: "didFetchChanges"
        case .willSendChanges: "willSendChanges"
        case .didSendChanges: "didSendChanges"
        }
    }

    private static func milestone(_ change: CKSyncEngine.Event.AccountChange.ChangeType) -> String {
        switch change {
        case .signIn: "signIn"
        case .signOut: "signOut"
        case .switchAccounts: "switchAccounts"
        }
    }
}
