import CloudKit
import Foundation
import Testing

/// The server failing under an engine, end to end: a real `stratus serve` process killed with
/// `kill -9` in the middle of a send (a process, since only that leaves a request in flight with no
/// answer at all), and a web auth token revoked while changes wait (the in-process server). After
/// the server is back (or the same user signs in again) every note the app queued is on the
/// server, and the engine reported none of them lost.
@Suite struct SyncEngineServerFaultTests {
    @Test func aServerKilledMidSendLosesNoQueuedChange() async throws {
        try await StratusServerProcess.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            for index in 0..<300 { await phone.write("note-\(index)", "text \(index)") }
            // Every modify waits 3 s before the server starts on it: the first batch of 200 is
            // answered, the second is in flight when the server dies.
            #expect(try await server.stratus(["faults", "add", "--endpoint", "records/modify", "--latency-ms", "3000"]) == 0)
            let send = Task { try await phone.send() }
            #expect(await eventually {
                let answered = await phone.events.contains("sentRecordZoneChanges")
                let batches = await phone.batchSizes.count
                return answered && batches >= 2
            })
            try await Task.sleep(for: .milliseconds(500))
            try await server.crash()
            #expect(try await server.stratus(["faults", "clear"]) == 0)
            _ = try? await send.value

            for _ in 0..<5 {
                if await phone.engine.state.pendingRecordZoneChanges.isEmpty { break }
                try? await phone.send()
            }
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            // A save whose answer the crash lost comes back as the server's own record
            // (`serverRecordChanged`), which the app answers by sending its text again: nothing else.
            let failedSaves = await phone.failedSaves
            #expect(failedSaves.allSatisfy { $0.code == .serverRecordChanged }, "\(failedSaves)")
            let held = try await serverNotes(in: notesZone, of: try server.container("alice").privateCloudDatabase)
            #expect(held.count == 300)
            #expect(held == (await phone.notes))
        }
    }

    @Test func aRevokedTokenKeepsEveryChangeUntilTheSameUserSignsInAgain() async throws {
        try await DevServer.with { server in
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await phone.write("kept-0", "before")
            try await phone.send()

            let alice = try StratusConnection(devCredentials: server.credentials, account: "alice")
            let token = try #require(alice.webAuthToken)
            #expect(try await server.stratus(["account", "revoke-token", token]) == 0)
            await phone.write("kept-1", "while signed out")
            await phone.write("kept-2", "while signed out")
            let refused = try await #require(throws: CKError.self) { try await phone.send() }
            #expect(refused.code == .notAuthenticated)
            let pending = await phone.engine.state.pendingRecordZoneChanges
            #expect(Set(pending.map(\.recordID.recordName)) == ["kept-1", "kept-2"], "a refused token answers nothing: every change stays")
            #expect(await phone.failedSaves.isEmpty, "nothing is reported to the app as refused")
            #expect(await phone.accountChanges.count == 1, "a refused token is not an account change")

            // The same user signs in again (the dev server mints alice a new token on restart):
            // the app relaunches its engine from the state it saved, and everything goes out.
            try await server.restart()
            let state = await phone.stateSerialization
            let relaunched = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, state: state)
            for (name, text) in await phone.notes { await relaunched.remember(name, text) }
            try await relaunched.send()
            #expect(await relaunched.engine.state.pendingRecordZoneChanges.isEmpty)
            #expect(await relaunched.accountChanges.isEmpty, "the same user: no account change")
            let held = try await serverNotes(in: notesZone, of: try server.container("alice").privateCloudDatabase)
            #expect(held == ["kept-0": "before", "kept-1": "while signed out", "kept-2": "while signed out"])
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
