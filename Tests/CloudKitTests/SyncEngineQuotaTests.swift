import CloudKit
import Foundation
import Testing

/// `quotaExceeded`: the account's storage is full. The edit is never dropped: the engine reports
/// the refused save, keeps the change pending, and sends it once there is room again.
@Suite struct SyncEngineQuotaTests {
    @Test func aSaveRefusedForQuotaStaysPendingAndGoesOutOnceThereIsRoom() async throws {
        try await StratusServerProcess.with { server in
            let alice = try server.container("alice")
            let phone = NoteDevice(alice.privateCloudDatabase, zoneID: notesZone)
            await phone.write("first", "fits")
            try await phone.send()
            #expect(await phone.savedCount == 1)

            let user = try await alice.userRecordID().recordName
            let container = server.containerIdentifier
            #expect(try server.stratus(["account", "quota", "--container", container, "--user", user, "--bytes", "1"]) == 0)
            await phone.resetLog()
            await phone.write("second", String(repeating: "a note too large for a full account ", count: 20))
            let refused = try await #require(throws: CKError.self) { try await phone.send() }
            #expect([.partialFailure, .quotaExceeded].contains(refused.code), "\(refused.code)")
            let pending = await phone.engine.state.pendingRecordZoneChanges
            #expect(pending.contains(.saveRecord(CKRecord.ID(recordName: "second", zoneID: notesZone))), "the edit stays pending")

            #expect(try server.stratus(["account", "quota", "--container", container, "--user", user, "--none"]) == 0)
            try await phone.send()
            #expect(await phone.engine.state.pendingRecordZoneChanges.isEmpty)
            let saved = try await alice.privateCloudDatabase.record(for: CKRecord.ID(recordName: "second", zoneID: notesZone))
            #expect((saved["text"] as? String)?.hasPrefix("a note too large") == true)
        }
    }
}

private let notesZone = CKRecordZone.ID(zoneName: "Notes")
