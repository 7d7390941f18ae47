import Foundation
import StratusKit
import StratusModel
import Testing

/// Failures a device must survive without losing the user's edits.
@Suite("Journal: recovery")
struct JournalRecoveryTests {
    @Test("zoneNotFound: the zone is deleted from another device while the iPhone holds an unsent edit; the edit survives")
    func zoneDeletedBehindTheDevice() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let key = await iphone.privateKey("lisbon")
            try await iphone.save(key, type: "Destination", fields: Journal.destination("Lisbon", details: "Trams"))
            try await iphone.sync()

            // The edit stays on the iPhone; meanwhile another device deletes the whole zone.
            try await iphone.save(key, type: "Destination", fields: ["caption": .string("Lisboa")])
            let results = try await journal.container(as: "alice").privateCloudDatabase.modifyZones(saving: [], deleting: [key.zoneID])
            #expect(results.allSatisfy { if case .success = $0 { true } else { false } })

            try await iphone.sync()
            // The zone exists again and holds the edit, with every field the iPhone had.
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            let stored = try #require(server["\(journal.userRecordName("alice"))/\(key.zoneName)/lisbon"])
            #expect(stored["caption"] == .string("Lisboa") && stored["details"] == .string("Trams"))
            #expect(try await iphone.store.record(key)?.fields["caption"]?.value == .string("Lisboa"))
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }
}
