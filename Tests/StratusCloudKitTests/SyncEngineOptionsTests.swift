import Foundation
import Testing

@testable import StratusCloudKit

/// The engine's options and events as apps use them (issue 49, item 8 and the events'
/// `description`): options always carry an operation group, as Apple's make one, so a delegate
/// that logs `options.operationGroup.name` runs; every event payload prints what it is about.
@Suite struct SyncEngineOptionsTests {
    static let zone = CKRecordZone.ID(zoneName: "Notes")

    @Test func defaultOptionsCarryAFreshOperationGroup() {
        let send = CKSyncEngine.SendChangesOptions()
        let fetch = CKSyncEngine.FetchChangesOptions()
        // Apple's sample logs the group's name: nil until the app names it, never a trap.
        #expect(send.operationGroup.name == nil)
        #expect(fetch.operationGroup.name == nil)
        #expect(!send.operationGroup.operationGroupID.isEmpty)
        #expect(send.operationGroup !== CKSyncEngine.SendChangesOptions().operationGroup, "each options value its own group")
        #expect(fetch.operationGroup !== CKSyncEngine.FetchChangesOptions().operationGroup)
        let group = CKOperationGroup()
        group.name = "pull to refresh"
        #expect(CKSyncEngine.FetchChangesOptions(scope: .all, operationGroup: group).operationGroup === group)
        #expect(CKSyncEngine.SendChangesOptions(scope: .zoneIDs([Self.zone]), operationGroup: group).operationGroup.name == "pull to refresh")
    }

    @Test func sentChangesPrintTheirRecordsAndFailures() {
        let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n1", zoneID: Self.zone))
        let conflict = CKError(.serverRecordChanged, userInfo: [NSLocalizedDescriptionKey: "changed"])
        let sent = CKSyncEngine.Event.SentRecordZoneChanges(
            savedRecords: [record], failedRecordSaves: [.init(record: record, error: conflict)], deletedRecordIDs: [],
            failedRecordDeletes: [CKRecord.ID(recordName: "n2", zoneID: Self.zone): CKError(.unknownItem, userInfo: [:])]
        )
        #expect(sent.description == "SentRecordZoneChanges(savedRecords: 1, failedRecordSaves: [n1: serverRecordChanged], deletedRecordIDs: 0, failedRecordDeletes: [n2: unknownItem])")
        #expect(CKSyncEngine.Event.sentRecordZoneChanges(sent).description.hasPrefix("sentRecordZoneChanges(savedRecords: 1, "))
        let zones = CKSyncEngine.Event.SentDatabaseChanges(savedZones: [CKRecordZone(zoneID: Self.zone)], failedZoneSaves: [], deletedZoneIDs: [], failedZoneDeletes: [:])
        #expect(zones.description == "SentDatabaseChanges(savedZones: [Notes], failedZoneSaves: [], deletedZoneIDs: [], failedZoneDeletes: [])")
    }

    @Test func everyOtherEventPayloadPrintsWhatItIsAbout() {
        let switched = CKSyncEngine.Event.AccountChange(changeType: .switchAccounts(previousUser: CKRecord.ID(recordName: "_alice"), currentUser: CKRecord.ID(recordName: "_bob")))
        #expect(switched.description == "AccountChange(changeType: switchAccounts(previousUser: _alice, currentUser: _bob))")
        let fetched = CKSyncEngine.Event.FetchedDatabaseChanges(
            modifications: [CKDatabase.DatabaseChange.Modification(zoneID: Self.zone)],
            deletions: [CKDatabase.DatabaseChange.Deletion(zoneID: CKRecordZone.ID(zoneName: "Old"), reason: .purged)]
        )
        #expect(fetched.description == "FetchedDatabaseChanges(modifications: [Notes], deletions: [Old (purged)])")
        #expect(CKSyncEngine.Event.FetchedRecordZoneChanges(modifications: [], deletions: []).description == "FetchedRecordZoneChanges(modifications: 0, deletions: 0)")
        #expect(CKSyncEngine.Event.WillFetchRecordZoneChanges(zoneID: Self.zone).description == "WillFetchRecordZoneChanges(zoneID: Notes)")
        let failed = CKSyncEngine.Event.DidFetchRecordZoneChanges(zoneID: Self.zone, error: CKError(.networkFailure, userInfo: [:]))
        #expect(failed.description == "DidFetchRecordZoneChanges(zoneID: Notes, error: networkFailure)")
        let context = CKSyncEngine.SendChangesContext(reason: .scheduled, options: CKSyncEngine.SendChangesOptions())
        #expect(CKSyncEngine.Event.WillSendChanges(context: context).description.hasPrefix("WillSendChanges(context: SendChangesContext(reason: scheduled"))
        #expect(CKSyncEngine.Event.DidSendChanges(context: context).description.hasPrefix("DidSendChanges("))
        let fetchContext = CKSyncEngine.FetchChangesContext(reason: .manual, options: CKSyncEngine.FetchChangesOptions())
        #expect(CKSyncEngine.Event.WillFetchChanges(context: fetchContext).description.hasPrefix("WillFetchChanges(context: FetchChangesContext(reason: manual"))
        #expect(CKSyncEngine.Event.DidFetchChanges(context: fetchContext).description.hasPrefix("DidFetchChanges("))
        var state = CKSyncEngine.State.Serialization()
        state.add([CKSyncEngine.PendingRecordZoneChange.saveRecord(CKRecord.ID(recordName: "n1", zoneID: Self.zone))])
        #expect(CKSyncEngine.Event.StateUpdate(stateSerialization: state).description.hasPrefix("StateUpdate(stateSerialization: Serialization(pendingRecordZoneChanges: 1, "))
        #expect(CKSyncEngine.Event.stateUpdate(CKSyncEngine.Event.StateUpdate(stateSerialization: state)).description.hasPrefix("stateUpdate("))
    }
}
