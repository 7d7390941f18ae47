import CloudKit
import Foundation
import Testing

/// Apple's first spellings of a pending record change, `.save(_:)` and `.delete(_:)`, still
/// compile and are the same changes as `.saveRecord(_:)` and `.deleteRecord(_:)`. The test is
/// marked deprecated itself, so calling them warns nothing (the `@Test` macro's thunks are
/// deprecated too). No server: the engine never syncs.
@Suite struct SyncEngineDeprecatedSpellingTests {
    @available(*, deprecated, message: "exercises CKSyncEngine.PendingRecordZoneChange.save(_:) and .delete(_:)")
    @Test func deprecatedSaveAndDeleteSpellingsAreSaveRecordAndDeleteRecord() throws {
        let zoneID = CKRecordZone.ID(zoneName: "Notes")
        let kept = CKRecord.ID(recordName: "kept", zoneID: zoneID)
        let gone = CKRecord.ID(recordName: "gone", zoneID: zoneID)

        let save: CKSyncEngine.PendingRecordZoneChange = .save(kept)
        let delete: CKSyncEngine.PendingRecordZoneChange = .delete(gone)
        #expect(save == .saveRecord(kept))
        #expect(delete == .deleteRecord(gone))
        #expect(save != .deleteRecord(kept))
        #expect(delete != .saveRecord(gone))
        #expect(save.recordID == kept && delete.recordID == gone)
        #expect(Set([save, .saveRecord(kept)]).count == 1, "equal changes hash alike")

        let url = try #require(URL(string: "http://127.0.0.1:9"))
        let connection = StratusConnection(serverURL: url, apiToken: "unused", webAuthToken: nil)
        let container = CKContainer(identifier: "iCloud.com.example.TravelJournal", connection: connection)
        let delegate = Silent()
        var configuration = CKSyncEngine.Configuration(database: container.privateCloudDatabase, stateSerialization: nil, delegate: delegate)
        configuration.automaticallySync = false
        let engine = CKSyncEngine(configuration)
        engine.state.add(pendingRecordZoneChanges: [.save(kept), .delete(gone)])
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(kept), .deleteRecord(gone)])
        engine.state.remove(pendingRecordZoneChanges: [.save(kept)])
        #expect(engine.state.pendingRecordZoneChanges == [.deleteRecord(gone)])
        withExtendedLifetime(delegate) {}
    }
}

/// A delegate with nothing to send.
private final class Silent: CKSyncEngineDelegate {
    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {}
    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? { nil }
}
