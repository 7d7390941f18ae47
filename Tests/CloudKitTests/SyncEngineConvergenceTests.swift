import CloudKit
import Foundation
import Testing

/// Devices of one account, each with its own `CKSyncEngine`, write, edit and delete notes, send
/// and fetch: afterwards every device holds the same notes, and they are what the server holds
/// (read back with `recordZoneChanges` and `records(for:)`).
@Suite struct SyncEngineConvergenceTests {
    @Test func twoDevicesOfOneAccountConvergeOnWhatTheServerHolds() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)

            await phone.write("milk", "2 litres")
            await phone.write("bread", "rye")
            await phone.write("eggs", "a dozen")
            await tablet.write("dentist", "call on Monday")
            await tablet.write("rent", "pay by the 1st")
            try await syncAll([phone, tablet])
            let first = ["milk": "2 litres", "bread": "rye", "eggs": "a dozen", "dentist": "call on Monday", "rent": "pay by the 1st"]
            #expect(await phone.notes == first)
            #expect(await tablet.notes == first)

            // Each edits the other's notes; the tablet deletes one of the phone's.
            await tablet.write("milk", "1 litre, oat")
            await tablet.delete("bread")
            await phone.write("dentist", "called: Tuesday 10:00")
            try await syncAll([phone, tablet])

            let expected = ["milk": "1 litre, oat", "eggs": "a dozen", "dentist": "called: Tuesday 10:00", "rent": "pay by the 1st"]
            #expect(await phone.notes == expected)
            #expect(await tablet.notes == expected)
            #expect(await phone.failedSaves.isEmpty, "no conflicts: each edited what it had fetched")
            #expect(await tablet.failedSaves.isEmpty)
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(await tablet.engine.state.pendingRecordZoneChanges.isEmpty)
            try await expectServer(db, holds: expected, deleted: ["bread"])
        }
    }

    @Test func threeDevicesOfOneAccountConvergeOnWhatTheServerHolds() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let laptop = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)

            await phone.write("p1", "from the phone")
            await phone.write("p2", "also from the phone")
            await tablet.write("t1", "from the tablet")
            await laptop.write("l1", "from the laptop")
            try await syncAll([phone, tablet, laptop])
            let first = ["p1": "from the phone", "p2": "also from the phone", "t1": "from the tablet", "l1": "from the laptop"]
            for device in [phone, tablet, laptop] { #expect(await device.notes == first) }

            await phone.write("t1", "the tablet's, edited on the phone")
            await laptop.delete("p2")
            await tablet.write("t2", "a second one from the tablet")
            await laptop.write("l1", "from the laptop, edited")
            try await syncAll([laptop, phone, tablet])

            let expected = [
                "p1": "from the phone", "t1": "the tablet's, edited on the phone", "t2": "a second one from the tablet",
                "l1": "from the laptop, edited",
            ]
            for device in [phone, tablet, laptop] {
                #expect(await device.notes == expected)
                #expect(await device.failedSaves.isEmpty)
                #expect(await device.engine.state.pendingRecordZoneChanges.isEmpty)
                #expect(await device.engine.state.pendingDatabaseChanges.isEmpty)
            }
            try await expectServer(db, holds: expected, deleted: ["p2"])
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")

/// Expects the server's Notes zone to hold exactly `expected` (by its change feed and by a
/// lookup of each), and each of `deleted` to be gone (`unknownItem`).
private func expectServer(_ db: CKDatabase, holds expected: [String: String], deleted: [String]) async throws {
    #expect(try await serverNotes(in: notesZone, of: db) == expected, "the zone's change feed")
    let ids = (expected.keys.sorted() + deleted).map { CKRecord.ID(recordName: $0, zoneID: notesZone) }
    let results = try await db.records(for: ids)
    for (name, text) in expected {
        let result = try #require(results[CKRecord.ID(recordName: name, zoneID: notesZone)])
        #expect(try result.get()["text"] as? String == text, "records(for:) of \(name)")
    }
    for name in deleted {
        let result = try #require(results[CKRecord.ID(recordName: name, zoneID: notesZone)])
        let error = try #require(throws: CKError.self) { try result.get() }
        #expect(error.code == .unknownItem, "\(name) was deleted")
    }
}
