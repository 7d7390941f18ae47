import CloudKit
import Foundation
import Testing

/// Apple's engine "re-schedules sync tasks for retryable errors such as network failures" and,
/// once an account is available, syncs on its own: an automatic engine launched while the server
/// is down (no network at launch) fetches, saves its database subscription and sends the edit
/// made offline once the server is back — nobody calls `fetchChanges()` or `sendChanges()`.
@Suite struct SyncEngineOfflineLaunchTests {
    @Test func anAutomaticEngineLaunchedOfflineFetchesSubscribesAndSendsOnceTheServerIsBack() async throws {
        try await DevServer.with { server in
            let laptop = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await laptop.write("groceries", "milk")
            try await laptop.send()
            let database = try server.container("alice").privateCloudDatabase

            await server.halt()
            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            await phone.start()
            await phone.write("offline", "written on the train")
            try await server.resume()

            #expect(await eventually { await phone.notes["groceries"] == "milk" }, "the phone fetched on its own")
            #expect(await eventually { await phone.engine.state.pendingRecordZoneChanges.isEmpty }, "the offline edit went up on its own")
            #expect(try await database.record(for: CKRecord.ID(recordName: "offline", zoneID: notesZone))["text"] as? String == "written on the train")
            let subscribed = await eventually {
                (try? await database.allSubscriptions())?.contains { $0.subscriptionID == "CKSyncEngine-private" } ?? false
            }
            #expect(subscribed, "the engine saved its database subscription once the server answered")
            let reasons = await phone.fetchReasons + phone.sendReasons
            #expect(!reasons.contains(.manual), "\(reasons)")
        }
    }

    /// The server refuses the engine's first database fetches and subscription saves (a failure
    /// it does not retry inside one request): the automatic engine tries each again after a
    /// back-off, on its own, until it has the other device's note and its subscription.
    @Test func anAutomaticEngineWhoseFetchAndSubscriptionFailTriesThemAgainOnItsOwn() async throws {
        try await DevServer.with { server in
            let laptop = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            await laptop.write("groceries", "milk")
            try await laptop.send()
            let database = try server.container("alice").privateCloudDatabase
            for endpoint in ["changes/database", "subscriptions/modify"] {
                #expect(try await server.stratus(["faults", "add", "--endpoint", endpoint, "--error", "INTERNAL_ERROR", "--count", "2"]) == 0)
            }

            let phone = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone, automaticallySync: true)
            await phone.start()
            #expect(await eventually { await phone.notes["groceries"] == "milk" }, "the phone fetched again on its own")
            #expect(await phone.fetchReasons.count >= 2, "the first fetch failed and was tried again")
            let subscribed = await eventually {
                (try? await database.allSubscriptions())?.contains { $0.subscriptionID == "CKSyncEngine-private" } ?? false
            }
            #expect(subscribed, "the subscription was saved after its failures")
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
