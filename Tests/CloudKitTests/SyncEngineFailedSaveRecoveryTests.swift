import CloudKit
import Foundation
import Testing

/// A device sends on what it last fetched while another device has changed the server:
/// - the zone was deleted: the save fails with `zoneNotFound`; as Apple's sample app does, the
///   delegate queues `.saveZone` and the `.saveRecord` again: the zone goes in the same send (a
///   zone added during a send goes first, as Apple's engine sends it), the record in the next;
/// - the record was deleted: the save (carrying the old change tag) fails with `unknownItem`, as
///   CloudKit answers an update of a deleted record; the delegate creates the record again.
@Suite struct SyncEngineFailedSaveRecoveryTests {
    @Test func aSaveIntoAZoneAnotherDeviceDeletedFailsWithZoneNotFoundAndTheRequeuedZoneAndRecordAreRecreated() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let id = CKRecord.ID(recordName: "groceries", zoneID: notesZone)
            await phone.write("groceries", "milk")
            try await phone.send()
            try await tablet.fetch()

            await phone.deleteZone(notesZone)
            try await phone.send()
            #expect(await phone.milestones.contains("sentDatabaseChanges"))

            // The tablet has not fetched since: it believes the zone is there.
            await tablet.write("groceries", "milk, eggs")
            #expect(await tablet.engine.state.pendingDatabaseChanges.isEmpty)
            let error = try await #require(throws: CKError.self) { try await tablet.send() }
            #expect(error.code == .partialFailure)
            #expect((error.partialErrorsByItemID?[id] as? CKError)?.code == .zoneNotFound)
            #expect(await tablet.failedSaves.map(\.code) == [.zoneNotFound])
            // The zone queued during the send goes in the same pass, as Apple's engine sends it;
            // the record, attempted once in this pass, waits for the next.
            #expect(await tablet.engine.state.pendingDatabaseChanges.isEmpty)
            _ = try await db.recordZone(for: notesZone)
            #expect(await tablet.engine.state.pendingRecordZoneChanges == [.saveRecord(id)])

            try await tablet.send()
            #expect(await tablet.engine.state.pendingDatabaseChanges.isEmpty)
            #expect(await tablet.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(await tablet.failedSaves.count == 1, "the second send failed nothing")
            _ = try await db.recordZone(for: notesZone)
            #expect(try await db.record(for: id)["text"] as? String == "milk, eggs")

            try await phone.fetch()
            #expect(await phone.notes == ["groceries": "milk, eggs"])
        }
    }

    @Test func aSaveOfANoteAnotherDeviceDeletedFailsWithUnknownItemAndTheRequeuedNoteIsCreatedAgain() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let id = CKRecord.ID(recordName: "recipe", zoneID: notesZone)
            await phone.write("recipe", "bacalhau")
            try await phone.send()
            try await tablet.fetch()
            let staleTag = try #require(await tablet.serverRecords["recipe"]?.recordChangeTag)

            await phone.delete("recipe")
            try await phone.send()

            // The tablet edits the copy it fetched: its save carries the deleted record's change tag.
            await tablet.write("recipe", "bacalhau à brás")
            let error = try await #require(throws: CKError.self) { try await tablet.send() }
            #expect(error.code == .partialFailure)
            #expect((error.partialErrorsByItemID?[id] as? CKError)?.code == .unknownItem)
            #expect(await tablet.failedSaves.map(\.code) == [.unknownItem], "an update of a deleted record is unknownItem, as on CloudKit")
            #expect(await tablet.engine.state.pendingRecordZoneChanges == [.saveRecord(id)], "the delegate re-creates it")

            try await tablet.send()
            #expect(await tablet.engine.state.pendingRecordZoneChanges.isEmpty)
            let recreated = try await db.record(for: id)
            #expect(recreated["text"] as? String == "bacalhau à brás")
            #expect(recreated.recordChangeTag != staleTag)

            try await phone.fetch()
            #expect(await phone.notes == ["recipe": "bacalhau à brás"])
        }
    }

    @Test func aNoteDeletedOnOneDeviceIsDeletedOnTheOtherAndAZoneDeletionIsReportedAsOne() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.write("a", "1")
            await phone.write("b", "2")
            try await phone.send()
            try await tablet.fetch()

            await phone.delete("a")
            try await phone.send()
            try await tablet.fetch()
            #expect(await tablet.notes == ["b": "2"])

            await phone.deleteZone(notesZone)
            try await phone.send()
            await tablet.resetLog()
            try await tablet.fetch()
            #expect(await tablet.deletedZoneIDs == [notesZone])
            #expect(await tablet.milestones == ["willFetchChanges", "fetchedDatabaseChanges", "didFetchChanges"])
            #expect(await tablet.notes.isEmpty)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
