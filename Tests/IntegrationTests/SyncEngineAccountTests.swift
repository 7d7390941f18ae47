import Foundation
import StratusKit
import StratusModel
import Testing

/// Account changes and what the mirror records.
@Suite("SyncEngine: accounts and history")
struct SyncEngineAccountTests {
    @Test("an account change resets tokens and pending changes and emits accountChange")
    func accountChangeResetsState() async throws {
        try await Journal.run { journal in
            var state = SyncEngineState()
            state.lastUserRecordName = journal.userRecordName("alice")
            state.databaseToken = "stale"
            state.zoneTokens["alice/Journal"] = "stale"
            let zone = ZoneID(zoneName: "Journal", ownerRecordName: journal.userRecordName("alice"))
            state.pendingRecordZoneChanges = [.saveRecord(SyncRecordID(zoneID: zone, recordName: "alices"))]
            let delegate = SyncEngineSendTests.Recorder(records: [:])
            // The device now signs in as bob with alice's state.
            let engine = SyncEngineSendTests.engine(journal, credentials: journal.account("bob").credentials, delegate: delegate, state: state)
            try await engine.fetchChanges()
            let after = await engine.state
            #expect(after.lastUserRecordName == journal.userRecordName("bob"))
            #expect(after.pendingRecordZoneChanges.isEmpty && after.zoneTokens.isEmpty)
            #expect(after.databaseToken != "stale")
            #expect(delegate.events.prefix(2) == ["willFetchChanges", "accountChange"])
        }
    }

    @Test("share records produce no history transactions on the participant's device")
    func sharesMakeNoHistory() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let bob = try await journal.device("bob-iphone", signedInAs: "bob")
            let lisbon = await iphone.privateKey("lisbon")
            try await iphone.save(lisbon, type: "Destination", fields: Journal.destination("Lisbon"))
            try await iphone.sync()
            let share = try await iphone.share(lisbon, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            try await bob.sync()
            let history = try await bob.store.history()
            #expect(history.contains { $0.key.recordName == "lisbon" }, "the shared record is in bob's history")
            #expect(!history.contains { $0.key.recordName == share.recordName }, "the share is not")
        }
    }
}
