import CloudKit
import Foundation
import Testing

/// An app persists the `State.Serialization` of the last `stateUpdate` (here as JSON) and hands
/// it to the engine of its next launch: that engine fetches nothing it already had — across a
/// restart of the server too — and each later change exactly once; pending changes in the
/// serialization are still sent.
@Suite struct SyncEngineStateSerializationTests {
    @Test func anEngineResumedFromItsSerializationAfterAServerRestartFetchesOnlyNewChangesOnce() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            for day in 1...3 { await phone.write("day-\(day)", "entry \(day)") }
            try await phone.send()
            try await tablet.fetch()
            #expect(await tablet.notes.count == 3)
            let tabletJSON = try JSONEncoder().encode(try #require(await tablet.stateSerialization))
            let phoneJSON = try JSONEncoder().encode(try #require(await phone.stateSerialization))

            try await server.restart()

            let alice = try server.container("alice")
            let tabletState = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: tabletJSON)
            let resumedTablet = NoteDevice(alice.privateCloudDatabase, zoneID: journalZone, state: tabletState)
            try await resumedTablet.fetch()
            #expect(await resumedTablet.fetchedNames.isEmpty, "nothing the tablet had is fetched again")
            let afterRestart = await resumedTablet.milestones
            #expect(!afterRestart.contains("fetchedRecordZoneChanges"))
            #expect(await resumedTablet.accountChanges.isEmpty, "the same account: no account change")

            let phoneState = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: phoneJSON)
            let resumedPhone = NoteDevice(alice.privateCloudDatabase, zoneID: journalZone, state: phoneState)
            await resumedPhone.write("day-4", "entry 4")
            try await resumedPhone.send()

            try await resumedTablet.fetch()
            try await resumedTablet.fetch()
            #expect(await resumedTablet.fetchedNames == ["day-4"], "the new change arrives, once")
            #expect(await resumedTablet.notes == ["day-4": "entry 4"])
            #expect(await resumedTablet.accountChanges.isEmpty)
        }
    }

    @Test func aNewEngineFromTheJSONOfTheLastStateUpdateFetchesNothingTwice() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            let tablet = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            for day in 1...5 { await phone.write("day-\(day)", "entry \(day)") }
            try await phone.send()
            try await tablet.fetch()
            await phone.delete("day-5")
            try await phone.send()
            try await tablet.fetch()
            #expect(await tablet.notes.count == 4)

            let json = try JSONEncoder().encode(try #require(await tablet.stateSerialization))
            let relaunched = NoteDevice(
                try server.container("alice").privateCloudDatabase, zoneID: journalZone,
                state: try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: json)
            )
            try await relaunched.fetch()
            #expect(await relaunched.fetchedNames.isEmpty)

            await phone.write("day-1", "entry 1, revised")
            try await phone.send()
            try await relaunched.fetch()
            #expect(await relaunched.fetchedNames == ["day-1"])
            #expect(await relaunched.notes == ["day-1": "entry 1, revised"])
        }
    }

    @Test func pendingChangesInASavedSerializationAreSentByTheNextEngine() async throws {
        try await DevServer.with { server in
            let db = try server.container("alice").privateCloudDatabase
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            await phone.write("day-1", "entry 1")
            await phone.write("day-2", "entry 2")
            try await phone.fetch()  // its stateUpdates now hold the pending changes; nothing is sent
            let json = try JSONEncoder().encode(try #require(await phone.stateSerialization))
            let state = try JSONDecoder().decode(CKSyncEngine.State.Serialization.self, from: json)

            let relaunched = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone, state: state)
            let ids = ["day-1", "day-2"].map { CKRecord.ID(recordName: $0, zoneID: journalZone) }
            #expect(await relaunched.engine.state.pendingRecordZoneChanges == ids.map { CKSyncEngine.PendingRecordZoneChange.saveRecord($0) })
            #expect(await relaunched.engine.state.pendingDatabaseChanges == [.saveZone(CKRecordZone(zoneID: journalZone))])
            // The relaunched app still has its notes (it kept them beside the state).
            await relaunched.write("day-1", "entry 1")
            await relaunched.write("day-2", "entry 2")
            try await relaunched.send()
            #expect(await relaunched.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(try await serverNotes(in: journalZone, of: db) == ["day-1": "entry 1", "day-2": "entry 2"])
        }
    }

    /// Apple: a `stateUpdate` "also happens when you change the state yourself" — adding pending
    /// changes — so an app that quits before the next sync keeps them. The module sends
    /// `stateUpdate` only while it fetches or sends (with `automaticallySync` off, never after
    /// an add).
    @Test func addingPendingChangesDeliversAStateUpdateThatHoldsThem() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone)
            try await phone.fetch()
            await phone.resetLog()
            await phone.write("day-1", "entry 1")
            let updated = await eventually { await phone.events.contains("stateUpdate") }
            let state = try #require(await phone.stateSerialization, "the fetch's stateUpdates")
            let relaunched = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: journalZone, state: state)
            let pending = await relaunched.engine.state.pendingRecordZoneChanges
            #expect(updated, "a stateUpdate within 5 s of adding a pending change")
            #expect(pending == [.saveRecord(CKRecord.ID(recordName: "day-1", zoneID: journalZone))], "the last stateUpdate holds it")
        }
    }
}

private let journalZone = CKRecordZone.ID(zoneName: "Journal")
