import CloudKit
import Foundation
import Testing

/// `quotaExceeded`: the account's storage is full. Apple's engine does not retry it: the refused
/// save is reported once and leaves the pending list, and the app — which keeps its edit —
/// adds it again once the user made room. Nothing is lost.
@Suite struct SyncEngineQuotaTests {
    @Test func aSaveRefusedForQuotaIsReportedOnceAndGoesOutWhenTheAppAddsItAgain() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let phone = NoteDevice(alice.privateCloudDatabase, zoneID: notesZone)
            await phone.write("first", "fits")
            try await phone.send()
            #expect(await phone.savedCount == 1)

            let user = try await alice.userRecordID().recordName
            let container = server.containerIdentifier
            #expect(try await server.stratus(["account", "quota", "--container", container, "--user", user, "--bytes", "1"]) == 0)
            await phone.resetLog()
            let second = CKRecord.ID(recordName: "second", zoneID: notesZone)
            await phone.write("second", String(repeating: "a note too large for a full account ", count: 20))
            let refused = try await #require(throws: CKError.self) { try await phone.send() }
            #expect([.partialFailure, .quotaExceeded].contains(refused.code), "\(refused.code)")
            #expect(await phone.failedSaves.map(\.code) == [.quotaExceeded])
            #expect(await !phone.engine.state.pendingRecordZoneChanges.contains(.saveRecord(second)), "refused for good: it leaves the list")
            #expect(await phone.waitingForRoom == [second], "the app keeps the edit")

            // Reported once: the next send has nothing to say about it.
            try await phone.send()
            #expect(await phone.failedSaves.count == 1)

            #expect(try await server.stratus(["account", "quota", "--container", container, "--user", user, "--none"]) == 0)
            await phone.userMadeRoom()
            try await phone.send()
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            let saved = try await alice.privateCloudDatabase.record(for: second)
            #expect((saved["text"] as? String)?.hasPrefix("a note too large") == true)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
