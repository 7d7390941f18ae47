import CloudKit
import Foundation
import Testing

/// Two devices edit the same note; whichever sends second meets a conflict. Its `sendChanges()`
/// throws only after `sentRecordZoneChanges` reported the failed save as `serverRecordChanged`
/// with the server's record; the delegate keeps its own (later) text on that record and queues
/// it again, the next send saves it, and the later-modified text is then on every device and on
/// the server. Run in both orders, so each device meets the conflict once.
@Suite struct SyncEngineConflictTests {
    @Test func whenThePhoneSendsFirstTheTabletsLaterEditWinsEverywhere() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            try await expectLaterEditWins(earlier: (phone, "phone"), later: (tablet, "tablet"), in: server)
        }
    }

    @Test func whenTheTabletSendsFirstThePhonesLaterEditWinsEverywhere() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            try await expectLaterEditWins(earlier: (tablet, "tablet"), later: (phone, "phone"), in: server)
        }
    }

    @Test func aDeleteOfANoteEditedMeanwhileOnAnotherDeviceWinsEverywhere() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.write("plan", "draft")
            try await phone.send()
            try await tablet.fetch()

            // The phone edits, the tablet deletes: a delete does not check the change tag, so it wins.
            await phone.write("plan", "edited on the phone")
            try await phone.send()
            await tablet.delete("plan")
            try await tablet.send()
            try await phone.fetch()
            try await tablet.fetch()
            #expect(await phone.notes["plan"] == nil)
            #expect(await tablet.notes["plan"] == nil)
            #expect(try await serverNotes(in: notesZone, of: db).isEmpty)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")

/// Both devices hold the note `plan`; `earlier` edits it, then `later` does; `earlier` sends,
/// then `later` sends into the conflict, and sends again what its delegate queued.
private func expectLaterEditWins(
    earlier: (device: NoteDevice, name: String), later: (device: NoteDevice, name: String), in server: DevServer
) async throws {
    let db = try server.container("alice").privateCloudDatabase
    let planID = CKRecord.ID(recordName: "plan", zoneID: notesZone)
    await earlier.device.write("plan", "draft")
    try await earlier.device.send()
    try await later.device.fetch()
    #expect(await later.device.notes["plan"] == "draft")

    let earlierText = "\(earlier.name)'s text"
    let laterText = "\(later.name)'s text"
    await earlier.device.write("plan", earlierText)
    await later.device.write("plan", laterText)
    try await earlier.device.send()

    let error = try await #require(throws: CKError.self) { try await later.device.send() }
    #expect(error.code == .partialFailure)
    #expect((error.partialErrorsByItemID?[planID] as? CKError)?.code == .serverRecordChanged)
    // Reported to the delegate before sendChanges() threw, with the server's record.
    #expect(await later.device.failedSaves == [NoteDevice.FailedSave(name: "plan", code: .serverRecordChanged, serverText: earlierText)])
    #expect(await later.device.engine.state.pendingRecordZoneChanges == [.saveRecord(planID)], "the delegate queued its text again")
    let events = await later.device.events
    #expect(unbalancedEvents(events) == nil, "didSendChanges came although the send failed")
    // The state update for the delegate's own re-add may come before or after: it is its own event.
    #expect(events.last { $0 != "stateUpdate" } == "didSendChanges")

    try await later.device.send()
    #expect(await later.device.engine.state.pendingRecordZoneChanges.isEmpty)
    #expect(await later.device.failedSaves.count == 1, "the second send saved without a conflict")
    try await earlier.device.fetch()
    try await later.device.fetch()
    #expect(await earlier.device.notes["plan"] == laterText)
    #expect(await later.device.notes["plan"] == laterText)
    #expect(try await db.record(for: planID)["text"] as? String == laterText)
    #expect(await earlier.device.failedSaves.isEmpty, "the device that sent first met no conflict")
}
