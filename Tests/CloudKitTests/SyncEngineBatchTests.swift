import CloudKit
import Foundation
import Testing

/// Sends larger than one request: 444 pending changes go in one `sendChanges()` as several
/// batches the engine asks the delegate for, each within CloudKit's 400 items an operation, and
/// arrive whole on another device. A batch the delegate builds itself with
/// `init(recordsToSave:recordIDsToDelete:atomicByZone:)` of 300 records is sent whole too, atomic
/// or not (CloudKit takes 400 an operation; CloudKit Web Services 200 a request, so the module
/// splits a non-atomic one and Stratus takes an atomic one of 400 when asked).
@Suite struct SyncEngineBatchTests {
    @Test func fourHundredFortyFourNotesSentAtOnceGoInSeveralBatchesAndArriveWholeOnAnotherDevice() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            var expected: [String: String] = [:]
            for index in 0..<444 {
                expected["note-\(index)"] = "text \(index)"
                await phone.write("note-\(index)", "text \(index)")
            }
            try await phone.send()

            let sizes = await phone.batchSizes
            #expect(sizes.count >= 2, "the engine asked the delegate for several batches: \(sizes)")
            #expect(sizes.allSatisfy { $0 <= 400 }, "every batch within CloudKit's limit: \(sizes)")
            #expect(sizes.reduce(0, +) == 444, "each change in one batch")
            #expect(await phone.savedCount == 444)
            #expect(await phone.failedSaves.isEmpty)
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(await phone.milestones.filter { $0 == "willSendChanges" }.count == 1, "one send")

            try await tablet.fetch()
            #expect(await tablet.notes == expected)
            let fetched = await tablet.fetchedNames
            #expect(fetched.count == 444 && Set(fetched).count == 444, "each note fetched once")
            #expect(try await serverNotes(in: notesZone, of: phone.database) == expected)
        }
    }

    /// CloudKit Web Services takes 2 MB a request and 1 MB a record: a batch over the first is
    /// halved until each half fits; a record over the second fails alone with `limitExceeded` and
    /// stays pending.
    @Test func aBatchTooLargeForOneRequestIsHalvedAndAnOversizedNoteFailsAlone() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            var expected: [String: String] = [:]
            for index in 0..<10 { expected["big-\(index)"] = String(repeating: "p", count: 700_000) }
            for index in 0..<50 { expected["small-\(index)"] = "text \(index)" }
            for (name, text) in expected.sorted(by: { $0.key < $1.key }) { await phone.write(name, text) }
            await phone.write("huge", String(repeating: "h", count: 1_100_000))
            let error = try await #require(throws: CKError.self) { try await phone.send() }
            #expect(error.code == .partialFailure)
            let failures = await phone.failedSaves
            #expect(failures.map(\.name) == ["huge"] && failures.first?.code == .limitExceeded, "\(failures)")
            #expect(await phone.savedCount == 60)
            // No change leaves the list for a size: reported, and kept for the app to shrink or remove.
            #expect(await phone.engine.state.pendingRecordZoneChanges == [.saveRecord(CKRecord.ID(recordName: "huge", zoneID: notesZone))])
            #expect(try await serverNotes(in: notesZone, of: phone.database) == expected)
        }
    }

    @Test func aNonAtomicBatchOfThreeHundredRecordsIsSavedWhole() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.setBatchStyle(.everythingAtOnce(atomicByZone: false))
            let expected = try await sendThreeHundred(from: phone)
            #expect(await phone.batchSizes == [300], "the delegate's one batch")
            #expect(await phone.savedCount == 300)
            #expect(await phone.failedSaves.isEmpty)
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(try await serverNotes(in: notesZone, of: phone.database) == expected)
        }
    }

    /// An atomic zone batch of 300 — over CloudKit Web Services' 200 operations a request — is
    /// never refused for its size: the engine sends it in requests the server takes (Stratus takes
    /// 400 atomic operations when the client asks, and a request still refused as too large is
    /// halved), so every change reaches the server and none leaves the pending list failed.
    @Test func anAtomicBatchOverTheRequestLimitReachesTheServerWhole() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.write("note-0", "draft")
            try await phone.send()

            await phone.setBatchStyle(.everythingAtOnce(atomicByZone: true))
            var expected = ["note-0": "an edit"]
            await phone.write("note-0", "an edit")
            for index in 1..<300 {
                expected["note-\(index)"] = "text \(index)"
                await phone.write("note-\(index)", "text \(index)")
            }
            try await phone.send()
            #expect(await phone.failedSaves.isEmpty, "no change refused for the batch's size")
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(try await serverNotes(in: notesZone, of: db) == expected)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")

/// Writes 300 notes on `device` and sends them in one `sendChanges()`; answers the notes.
private func sendThreeHundred(from device: NoteDevice) async throws -> [String: String] {
    var expected: [String: String] = [:]
    for index in 0..<300 {
        expected["note-\(index)"] = "text \(index)"
        await device.write("note-\(index)", "text \(index)")
    }
    try await device.send()
    return expected
}
