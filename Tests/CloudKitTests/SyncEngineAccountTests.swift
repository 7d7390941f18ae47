import CloudKit
import Foundation
import Testing

/// The engine and the account: without a web auth token a fetch and a send throw
/// `notAuthenticated` and leave the pending changes alone; an engine started on bob's container
/// from alice's state reports `switchAccounts` and forgets alice's pending changes; a fresh
/// engine reports `signIn`.
@Suite struct SyncEngineAccountTests {
    @Test func withoutAWebAuthTokenFetchAndSendThrowNotAuthenticatedAndPendingChangesStay() async throws {
        try await DevServer.with { server in
            var connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            connection.webAuthToken = nil
            let signedOut = CKContainer(identifier: server.containerIdentifier, connection: connection)
            let device = NoteDevice(signedOut.privateCloudDatabase, zoneID: notesZone)
            await device.write("a", "1")
            await device.write("b", "2")
            let pendingRecords = await device.engine.state.pendingRecordZoneChanges
            let pendingZones = await device.engine.state.pendingDatabaseChanges
            #expect(pendingRecords.count == 2 && pendingZones.count == 1)

            let fetch = try await #require(throws: CKError.self) { try await device.fetch() }
            #expect(fetch.code == .notAuthenticated)
            let send = try await #require(throws: CKError.self) { try await device.send() }
            #expect(send.code == .notAuthenticated)

            #expect(await device.engine.state.pendingRecordZoneChanges == pendingRecords)
            #expect(await device.engine.state.pendingDatabaseChanges == pendingZones)
            #expect(await device.accountChanges.isEmpty, "no account: nothing signed in or out")
            #expect(await device.savedCount == 0)
            let events = await device.events
            #expect(unbalancedEvents(events) == nil, "didFetchChanges and didSendChanges came although both failed")
        }
    }

    @Test func anEngineWithAlicesStateOnADeviceSignedOutReportsSignOutAndStartsOver() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let aliceID = try await alice.userRecordID()
            let phone = NoteDevice(alice.privateCloudDatabase, zoneID: notesZone)
            await phone.write("hers", "alice's note, not sent")
            try await phone.fetch()
            let aliceState = try #require(await phone.stateSerialization)

            // The device's iCloud account signs out: no web auth token at all.
            var connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            connection.webAuthToken = nil
            let signedOut = CKContainer(identifier: server.containerIdentifier, connection: connection)
            let again = NoteDevice(signedOut.privateCloudDatabase, zoneID: notesZone, state: aliceState)
            let error = try await #require(throws: CKError.self) { try await again.fetch() }
            #expect(error.code == .notAuthenticated)
            let changes = await again.accountChanges
            guard case .signOut(let previous)? = changes.first else {
                Issue.record("expected signOut, got \(changes)")
                return
            }
            #expect(previous == aliceID && changes.count == 1)
            #expect(await again.engine.state.pendingRecordZoneChanges.isEmpty, "a signed-out device's state starts over")
            // A second fetch has nobody to sign out.
            _ = try await #require(throws: CKError.self) { try await again.fetch() }
            #expect(await again.accountChanges.count == 1)
        }
    }

    @Test func anEngineWithAlicesStateOnBobsContainerReportsSwitchAccountsAndDropsHerPendingChanges() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let aliceID = try await alice.userRecordID()
            let bobID = try await bob.userRecordID()
            let noteID = CKRecord.ID(recordName: "hers", zoneID: notesZone)

            let phone = NoteDevice(alice.privateCloudDatabase, zoneID: notesZone)
            await phone.write("hers", "alice's note, not sent")
            try await phone.fetch()  // signs alice in; the stateUpdates hold her and her pending change
            let aliceState = try #require(await phone.stateSerialization)

            let onBob = NoteDevice(bob.privateCloudDatabase, zoneID: notesZone, state: aliceState)
            #expect(await onBob.engine.state.pendingRecordZoneChanges == [.saveRecord(noteID)], "alice's state, pending change and all")
            try await onBob.fetch()
            let changes = await onBob.accountChanges
            #expect(changes.count == 1)
            guard case .switchAccounts(previousUser: let previous, currentUser: let current)? = changes.first else {
                Issue.record("expected switchAccounts, got \(changes)")
                return
            }
            #expect(previous == aliceID)
            #expect(current == bobID)
            #expect(await onBob.engine.state.pendingRecordZoneChanges.isEmpty, "the state was reset")
            #expect(await onBob.engine.state.pendingDatabaseChanges.isEmpty)

            try await onBob.send()
            #expect(await onBob.savedCount == 0, "nothing of alice's goes to bob's database")
            let lookup = try await bob.privateCloudDatabase.records(for: [noteID])
            let result = try #require(lookup[noteID])
            let missing = try #require(throws: CKError.self) { try result.get() }
            #expect([CKError.Code.zoneNotFound, .unknownItem].contains(missing.code))
        }
    }

    /// Apple's engine notices the account change on its own and resets the state before it
    /// syncs anything. The module checks the account only when it fetches: a send first sends
    /// alice's pending changes into bob's database.
    @Test func anEngineWithAlicesStateOnBobsContainerSendsNothingOfHersEvenBeforeItsFirstFetch() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bob = try server.container("bob")
            let noteID = CKRecord.ID(recordName: "hers", zoneID: notesZone)
            let phone = NoteDevice(alice.privateCloudDatabase, zoneID: notesZone)
            await phone.write("hers", "alice's note, not sent")
            try await phone.fetch()
            let aliceState = try #require(await phone.stateSerialization)

            let onBob = NoteDevice(bob.privateCloudDatabase, zoneID: notesZone, state: aliceState)
            try? await onBob.send()
            let saved = await onBob.savedCount
            let lookup = try await bob.privateCloudDatabase.records(for: [noteID])
            let inBobsDatabase = (try? lookup[noteID]?.get()) != nil
            #expect(saved == 0, "nothing of alice's was sent")
            #expect(!inBobsDatabase, "alice's note is not in bob's database")
        }
    }

    @Test func aFreshEngineReportsSignInOfTheContainersAccountOnItsFirstFetchOnly() async throws {
        try await DevServer.with { server in
            let bob = try server.container("bob")
            let bobID = try await bob.userRecordID()
            let device = NoteDevice(bob.privateCloudDatabase, zoneID: notesZone)
            try await device.fetch()
            let changes = await device.accountChanges
            #expect(changes.count == 1)
            guard case .signIn(currentUser: let current)? = changes.first else {
                Issue.record("expected signIn, got \(changes)")
                return
            }
            #expect(current == bobID)
            try await device.fetch()
            #expect(await device.accountChanges.count == 1, "signed in once")
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
