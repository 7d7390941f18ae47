import Foundation

// How the engine's events and their payloads print, as Apple's are printable (a delegate logs
// `"\(event)"`): what each is about, with records and zones by name, errors by code, and the
// counts of long lists.

extension CKSyncEngine.Event: CustomStringConvertible {
    /// The event's case and what it is about.
    public var description: String {
        switch self {
        case .stateUpdate(let event): "stateUpdate(\(event.fields))"
        case .accountChange(let event): "accountChange(\(event.fields))"
        case .fetchedDatabaseChanges(let event): "fetchedDatabaseChanges(\(event.fields))"
        case .fetchedRecordZoneChanges(let event): "fetchedRecordZoneChanges(\(event.fields))"
        case .sentDatabaseChanges(let event): "sentDatabaseChanges(\(event.fields))"
        case .sentRecordZoneChanges(let event): "sentRecordZoneChanges(\(event.fields))"
        case .willFetchChanges(let event): "willFetchChanges(\(event.fields))"
        case .willFetchRecordZoneChanges(let event): "willFetchRecordZoneChanges(\(event.fields))"
        case .didFetchRecordZoneChanges(let event): "didFetchRecordZoneChanges(\(event.fields))"
        case .didFetchChanges(let event): "didFetchChanges(\(event.fields))"
        case .willSendChanges(let event): "willSendChanges(\(event.fields))"
        case .didSendChanges(let event): "didSendChanges(\(event.fields))"
        }
    }
}

extension CKSyncEngine.Event.StateUpdate: CustomStringConvertible {
    public var description: String { "StateUpdate(\(fields))" }
    var fields: String { "stateSerialization: \(stateSerialization)" }
}

extension CKSyncEngine.Event.AccountChange: CustomStringConvertible {
    public var description: String { "AccountChange(\(fields))" }
    var fields: String { "changeType: \(changeType)" }
}

extension CKSyncEngine.Event.AccountChange.ChangeType: CustomStringConvertible {
    public var description: String {
        switch self {
        case .signIn(let current): "signIn(currentUser: \(current.recordName))"
        case .signOut(let previous): "signOut(previousUser: \(previous.recordName))"
        case .switchAccounts(let previous, let current): "switchAccounts(previousUser: \(previous.recordName), currentUser: \(current.recordName))"
        }
    }
}

extension CKSyncEngine.Event.FetchedDatabaseChanges: CustomStringConvertible {
    public var description: String { "FetchedDatabaseChanges(\(fields))" }
    var fields: String {
        let gone = deletions.map { deletion in deletion.zoneID.zoneName + " (" + String(describing: deletion.reason) + ")" }
        return "modifications: \(bracketed(modifications.map(\.zoneID.zoneName))), deletions: \(bracketed(gone))"
    }
}

extension CKSyncEngine.Event.FetchedRecordZoneChanges: CustomStringConvertible {
    public var description: String { "FetchedRecordZoneChanges(\(fields))" }
    var fields: String { "modifications: \(modifications.count), deletions: \(deletions.count)" }
}

extension CKSyncEngine.Event.SentDatabaseChanges: CustomStringConvertible {
    public var description: String { "SentDatabaseChanges(\(fields))" }
    var fields: String {
        "savedZones: \(bracketed(savedZones.map(\.zoneID.zoneName))), failedZoneSaves: \(bracketed(failedZoneSaves.map(\.description))), "
            + "deletedZoneIDs: \(bracketed(deletedZoneIDs.map(\.zoneName))), failedZoneDeletes: \(failureList(failedZoneDeletes, name: { $0.zoneName }))"
    }
}

extension CKSyncEngine.Event.SentDatabaseChanges.FailedZoneSave: CustomStringConvertible {
    public var description: String { "\(zone.zoneID.zoneName): \(error.code)" }
}

extension CKSyncEngine.Event.SentRecordZoneChanges: CustomStringConvertible {
    public var description: String { "SentRecordZoneChanges(\(fields))" }
    var fields: String {
        "savedRecords: \(savedRecords.count), failedRecordSaves: \(bracketed(failedRecordSaves.map(\.description))), "
            + "deletedRecordIDs: \(deletedRecordIDs.count), failedRecordDeletes: \(failureList(failedRecordDeletes, name: { $0.recordName }))"
    }
}

extension CKSyncEngine.Event.SentRecordZoneChanges.FailedRecordSave: CustomStringConvertible {
    public var description: String { "\(record.recordID.recordName): \(error.code)" }
}

extension CKSyncEngine.Event.WillFetchChanges: CustomStringConvertible {
    public var description: String { "WillFetchChanges(\(fields))" }
    var fields: String { "context: \(context)" }
}

extension CKSyncEngine.Event.WillFetchRecordZoneChanges: CustomStringConvertible {
    public var description: String { "WillFetchRecordZoneChanges(\(fields))" }
    var fields: String { "zoneID: \(zoneID.zoneName)" }
}

extension CKSyncEngine.Event.DidFetchRecordZoneChanges: CustomStringConvertible {
    public var description: String { "DidFetchRecordZoneChanges(\(fields))" }
    var fields: String { "zoneID: \(zoneID.zoneName), error: \(error.map { "\($0.code)" } ?? "nil")" }
}

extension CKSyncEngine.Event.DidFetchChanges: CustomStringConvertible {
    public var description: String { "DidFetchChanges(\(fields))" }
    var fields: String { "context: \(context)" }
}

extension CKSyncEngine.Event.WillSendChanges: CustomStringConvertible {
    public var description: String { "WillSendChanges(\(fields))" }
    var fields: String { "context: \(context)" }
}

extension CKSyncEngine.Event.DidSendChanges: CustomStringConvertible {
    public var description: String { "DidSendChanges(\(fields))" }
    var fields: String { "context: \(context)" }
}

extension CKSyncEngine.State.Serialization: CustomStringConvertible {
    /// What the state holds, in counts (the tokens themselves are opaque).
    public var description: String {
        "Serialization(pendingRecordZoneChanges: \(records.count), pendingDatabaseChanges: \(zones.count), "
            + "zonesWithUnfetchedServerChanges: \(unfetchedZones.count), hasPendingUntrackedChanges: \(hasPendingUntrackedChanges))"
    }
}

/// Failures by item, as `[name: code]` in name order.
private func failureList<ID: Hashable>(_ failures: [ID: CKError], name: (ID) -> String) -> String {
    let entries = failures.map { (name($0.key), $0.value.code) }.sorted { $0.0 < $1.0 }
    return bracketed(entries.map { "\($0.0): \($0.1)" })
}

/// Names as `[a, b]`, unquoted.
private func bracketed(_ names: [String]) -> String {
    "[" + names.joined(separator: ", ") + "]"
}
