import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// What a send takes to the database, with no server: the engine against a scripted database
/// (`ScriptedSyncDatabase`), its requests read back from the fake.
@Suite(.timeLimit(.minutes(1))) struct EngineSendTests {
    @Test func pendingSavesReachTheDatabaseInOneRequest() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("groceries", "milk", on: engine)
        harness.write("chores", "dishes", on: engine)
        try await engine.sendChanges()

        #expect(harness.fake.record(named: "groceries", in: notesZone)?["text"] as? String == "milk")
        #expect(harness.fake.record(named: "chores", in: notesZone)?["text"] as? String == "dishes")
        #expect(harness.fake.requests(of: .modifyRecords) == [.modifyRecords(saving: ["groceries", "chores"], deleting: [], atomically: false)])
        #expect(harness.savedNames == ["groceries", "chores"])
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
        // A new engine learns its account before its first send.
        #expect(harness.milestones == ["accountChange signIn", "willSendChanges", "sentRecordZoneChanges", "didSendChanges"])
        // The app keeps the server's record: its change tag goes with the next edit.
        #expect(harness.log.records[CKRecord.ID(recordName: "groceries", zoneID: notesZone)]?.recordChangeTag != nil)
    }

    @Test func aPendingDeleteRemovesTheRecord() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("old", "to delete"))
        let engine = CKSyncEngine(harness.configuration())
        engine.state.add(pendingRecordZoneChanges: [.deleteRecord(CKRecord.ID(recordName: "old", zoneID: notesZone))])
        try await engine.sendChanges()

        #expect(harness.fake.record(named: "old", in: notesZone) == nil)
        #expect(harness.fake.requests(of: .modifyRecords) == [.modifyRecords(saving: [], deleting: ["old"], atomically: false)])
        #expect(harness.deletedNames == ["old"])
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aChangeRemovedBeforeTheSendIsNotSent() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let ids = harness.write(["second-thoughts", "keeper"], on: engine)
        engine.state.remove(pendingRecordZoneChanges: [.saveRecord(ids[0])])
        try await engine.sendChanges()

        #expect(harness.fake.requests(of: .modifyRecords) == [.modifyRecords(saving: ["keeper"], deleting: [], atomically: false)])
        #expect(harness.fake.record(named: "second-thoughts", in: notesZone) == nil)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aSendScopedToOneZoneSendsThatZoneOnly() async throws {
        let harness = EngineHarness()
        let trips = CKRecordZone.ID(zoneName: "Trips")
        harness.fake.serverSaveZone(notesZone)
        harness.fake.serverSaveZone(trips)
        let engine = CKSyncEngine(harness.configuration())
        harness.write("note", on: engine)
        let trip = harness.write("trip", in: trips, on: engine)
        try await engine.sendChanges(CKSyncEngine.SendChangesOptions(scope: .zoneIDs([notesZone])))

        #expect(harness.fake.requests(of: .modifyRecords) == [.modifyRecords(saving: ["note"], deleting: [], atomically: false)])
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(trip)], "the other zone's change waits")
        try await engine.sendChanges()
        #expect(harness.fake.record(named: "trip", in: trips) != nil)
    }

    @Test func zoneSavesGoBeforeRecordSavesInOneSend() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: notesZone))])
        harness.write(["first", "second"], on: engine)
        try await engine.sendChanges()

        #expect(harness.fake.requests.filter { $0 != .userRecordID } == [
            .modifyRecordZones(saving: ["Notes"], deleting: []),
            .modifyRecords(saving: ["first", "second"], deleting: [], atomically: false),
        ])
        #expect(harness.milestones.filter { !$0.hasPrefix("accountChange") } == [
            "willSendChanges", "sentDatabaseChanges", "sentRecordZoneChanges", "didSendChanges",
        ])
        #expect(harness.fake.hasZone(notesZone))
        #expect(engine.state.pendingDatabaseChanges.isEmpty)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aPendingZoneDeleteDeletesTheZoneAndItsRecords() async throws {
        let harness = EngineHarness()
        harness.fake.serverSave(note("inside"))
        let engine = CKSyncEngine(harness.configuration())
        engine.state.add(pendingDatabaseChanges: [.deleteZone(notesZone)])
        try await engine.sendChanges()

        #expect(harness.fake.requests(of: .modifyRecordZones) == [.modifyRecordZones(saving: [], deleting: ["Notes"])])
        #expect(harness.fake.requests(of: .modifyRecords).isEmpty)
        #expect(!harness.fake.hasZone(notesZone))
        #expect(harness.fake.records(in: notesZone).isEmpty)
        #expect(harness.sentZones.flatMap(\.deletedZoneIDs) == [notesZone])
        #expect(engine.state.pendingDatabaseChanges.isEmpty)
    }

    /// A save into a zone the server does not have is refused for good: reported, and out of
    /// the list (the app saves the zone and adds the record again).
    @Test func aSaveIntoAMissingZoneIsReportedAndLeavesTheList() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        let lost = harness.write("lost", on: engine)
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }

        #expect(error.code == .partialFailure)
        #expect((error.partialErrorsByItemID?[lost] as? CKError)?.code == .zoneNotFound)
        #expect(harness.failedSaveCodes == ["lost": .zoneNotFound])
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// Another device saved the note meanwhile: the save is refused with the server's record,
    /// reported before `sendChanges()` throws, and out of the list; the app keeps its text on the
    /// server's record, adds it again, and the next send saves it.
    @Test func aConflictIsReportedWithTheServersRecordAndTheAppsAnswerIsSaved() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let plan = harness.write("plan", "draft", on: engine)
        try await engine.sendChanges()

        harness.fake.serverSave(note("plan", "the tablet's text"))
        harness.write("plan", "the phone's text", on: engine)
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }
        #expect(error.code == .partialFailure)
        #expect((error.partialErrorsByItemID?[plan] as? CKError)?.code == .serverRecordChanged)
        let conflict = try #require(harness.failedSaves["plan"])
        #expect(conflict.code == .serverRecordChanged)
        #expect(conflict.serverRecord?["text"] as? String == "the tablet's text")
        #expect(conflict.clientRecord?["text"] as? String == "the phone's text")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty, "answered: the app decides and adds it again")

        let server = try #require(conflict.serverRecord)
        harness.adopt(server, text: "the phone's text")
        engine.state.add(pendingRecordZoneChanges: [.saveRecord(plan)])
        try await engine.sendChanges()
        #expect(harness.fake.record(named: "plan", in: notesZone)?["text"] as? String == "the phone's text")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
