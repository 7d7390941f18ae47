import CloudKit
import Foundation
import Testing

/// `automaticallySync = true`: the engine fetches when it starts, sends soon after the app adds
/// pending changes, and fetches when the server pushes a change to its database subscription.
/// Two such devices need no manual `sendChanges()` or `fetchChanges()`: a note added on one
/// (just `state.add`) reaches the other, and each engine says it sent or fetched on its own
/// (`.scheduled`, never `.manual`). Deadlines are generous: what is shown is what happened.
@Suite struct SyncEngineAutomaticSyncTests {
    @Test func aNoteAddedOnOneAutomaticDeviceReachesTheOtherWithoutManualSync() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            await phone.start()
            let phoneFetched = await eventually { await phone.events.contains("didFetchChanges") }
            #expect(phoneFetched, "the phone fetched on its own when it started")
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            await tablet.start()
            let tabletFetched = await eventually { await tablet.events.contains("didFetchChanges") }
            #expect(tabletFetched, "the tablet fetched on its own when it started")

            // Once a first note has come through, the tablet is listening (a note written before its
            // long-poll began is not pushed to it: the next one is).
            var listening = false
            for attempt in 1...6 where !listening {
                await phone.write("warm-up", "hello \(attempt)")
                listening = await eventually(within: 30) { await tablet.notes["warm-up"] == "hello \(attempt)" }
            }
            #expect(listening, "a note added on the phone reached the tablet")

            await phone.write("ping", "are you there?")
            let arrived = await eventually { await tablet.notes["ping"] == "are you there?" }
            #expect(arrived, "the note reached the tablet on its own")
            let sent = await eventually { await phone.engine.state.pendingRecordZoneChanges.isEmpty }
            #expect(sent, "the phone's queue emptied on its own")

            let phoneSends = await phone.sendReasons
            let tabletFetches = await tablet.fetchReasons
            #expect(!phoneSends.isEmpty && !phoneSends.contains(.manual), "the phone sent on its own: \(phoneSends)")
            #expect(tabletFetches.count >= 2 && !tabletFetches.contains(.manual), "the tablet fetched on its own: \(tabletFetches)")
        }
    }

    @Test func anEditAndADeleteOnOneAutomaticDeviceReachTheOtherWithoutManualSync() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            await phone.start()
            await tablet.start()
            let started = await eventually {
                let phoneEvents = await phone.events
                let tabletEvents = await tablet.events
                return phoneEvents.contains("didFetchChanges") && tabletEvents.contains("didFetchChanges")
            }
            #expect(started, "both fetched on their own when they started")

            var listening = false
            for attempt in 1...6 where !listening {
                await phone.write("keep", "version \(attempt)")
                await phone.write("drop", "version \(attempt)")
                listening = await eventually(within: 30) { await tablet.notes["drop"] == "version \(attempt)" }
            }
            #expect(listening)

            await tablet.write("keep", "edited on the tablet")
            await tablet.delete("drop")
            let synced = await eventually {
                await phone.notes == ["keep": "edited on the tablet"]
            }
            #expect(synced, "the tablet's edit and delete reached the phone")
            #expect(await tablet.failedSaves.isEmpty)
            let phoneFetches = await phone.fetchReasons
            let tabletSends = await tablet.sendReasons
            #expect(!phoneFetches.isEmpty && !phoneFetches.contains(.manual), "the phone fetched on its own")
            #expect(!tabletSends.isEmpty && !tabletSends.contains(.manual), "the tablet sent on its own")
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
