import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// What a participant's mirror records of a share.
@Suite("Journal: share history")
struct ShareHistoryTests {
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
            #expect(!history.contains { $0.key.recordName == share.recordID.recordName }, "the share is not")
        }
    }
}
