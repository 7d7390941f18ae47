import Foundation
import StratusCloudKit
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
            let results = try await journal.container(as: "alice").privateCloudDatabase.modifyRecordZones(
                saving: [], deleting: [CKRecordZone.ID(zoneName: key.zoneID.zoneName)]
            )
            #expect(results.deleteResults.values.allSatisfy { if case .success = $0 { true } else { false } })

            try await iphone.sync()
            // The zone exists again and holds the edit, with every field the iPhone had.
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            let stored = try #require(server["\(journal.userRecordName("alice"))/\(key.zoneName)/lisbon"])
            #expect(stored["caption"] == .string("Lisboa") && stored["details"] == .string("Trams"))
            #expect(try await iphone.store.record(key)?.fields["caption"]?.value == .string("Lisboa"))
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("the same record name pending in two zones: a failure is recovered in its own zone, the other left alone")
    func sameNameInTwoZones() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let inJournal = await iphone.privateKey("day-1")
            let inArchive = RecordKey(scope: .private, zoneID: ZoneID(zoneName: "Archive", ownerRecordName: journal.userRecordName("alice")), recordName: "day-1")
            try await iphone.save(inJournal, type: "Day", fields: ["text": .string("journal 1")])
            try await iphone.save(inArchive, type: "Day", fields: ["text": .string("archive 1")])
            try await iphone.sync()

            // Both edited on the iPhone; meanwhile another device deletes the Journal zone only.
            for round in 2...4 {
                try await iphone.save(inJournal, type: "Day", fields: ["text": .string("journal \(round)")])
                try await iphone.save(inArchive, type: "Day", fields: ["text": .string("archive \(round)")])
                _ = try await journal.container(as: "alice").privateCloudDatabase.modifyRecordZones(
                    saving: [], deleting: [CKRecordZone.ID(zoneName: inJournal.zoneID.zoneName)]
                )
                try await iphone.sync()
                let server = try await journal.serverSnapshot(as: "alice", scope: .private)
                let owner = journal.userRecordName("alice")
                #expect(server["\(owner)/Journal/day-1"]?["text"] == .string("journal \(round)"), "round \(round): the Journal edit survives in its zone")
                #expect(server["\(owner)/Archive/day-1"]?["text"] == .string("archive \(round)"), "round \(round): the Archive record keeps its own edit")
                try await journal.assertConsistent([(iphone, "alice")])
            }
        }
    }
}
