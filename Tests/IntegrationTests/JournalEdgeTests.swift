import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// The journal at the edges `stratus fuzz --edges` drives: a field cleared (that key alone, on
/// the server and the account's other device), a photo whose file went before the send (that
/// record fails alone and is saved again without it), a zone deleted and made again.
@Suite("Journal: edges")
struct JournalEdgeTests {
    @Test("a field the app clears is cleared on the server and the other device, that key alone, through a conflict",
          arguments: SimulatedDevice.MirroringStyle.allCases)
    func clearedField(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: style)
            let naming = await iphone.store.naming
            let lisbon = await iphone.privateKey("lisbon")
            try await iphone.save(lisbon, type: "Destination", fields: Journal.destination("Lisbon", details: "Tram 28"))
            try await iphone.sync()
            try await ipad.sync()

            // The iPad changes the caption first: the iPhone's clear meets a newer record and is merged onto it.
            try await ipad.save(lisbon, type: "Destination", fields: ["caption": .string("Lisboa")])
            try await ipad.sync()
            try await iphone.clear(["details"], of: lisbon)
            #expect(try await iphone.store.record(lisbon)?.fields["details"] == nil)
            try await iphone.sync()
            try await ipad.sync()

            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            let saved = try #require(server["\(lisbon.owner)/\(lisbon.zoneName)/lisbon"])
            #expect(saved[naming.serverName("details")] == nil)
            #expect(saved[naming.serverName("caption")] == .string("Lisboa"))
            #expect(saved[naming.serverName("createdAt")] != nil, "only the cleared key went")
            #expect(try await ipad.store.record(lisbon)?.fields["details"] == nil)
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("a photo whose file went before the send: that record fails alone, is saved again without it, the others are saved",
          arguments: SimulatedDevice.MirroringStyle.allCases)
    func missingAssetFile(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: style)
            let naming = await iphone.store.naming
            let porto = await iphone.privateKey("porto")
            let braga = await iphone.privateKey("braga")
            let photo = try await iphone.assetField(Data((0..<2_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }))
            guard case .asset(let asset) = photo.value else {
                Issue.record("assetField answered no asset")
                return
            }
            let checksum = try #require(asset.fileChecksum)
            let file = await iphone.store.assets.file(for: checksum)
            try FileManager.default.removeItem(at: file)
            var fields = Journal.destination("Porto")
            fields["photo"] = photo
            try await iphone.save(porto, type: "Destination", fields: fields)
            try await iphone.save(braga, type: "Destination", fields: Journal.destination("Braga"))
            try await iphone.sync()

            let events = await iphone.events
            #expect(events.contains { $0.failures["porto"] == .assetFileNotFound }, "CloudKit failed the record whose file is gone")
            #expect(!events.contains { $0.failures["braga"] == .assetFileNotFound })
            #expect(events.contains { $0.name == "assetDropped" })
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(server["\(braga.owner)/\(braga.zoneName)/braga"]?[naming.serverName("caption")] == .string("Braga"))
            let saved = try #require(server["\(porto.owner)/\(porto.zoneName)/porto"])
            #expect(saved[naming.serverName("caption")] == .string("Porto"))
            #expect(saved[naming.serverName("photo")] == nil)
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("a zone deleted and made again: another device ends with the live zone's records and its own unsent creation; its edit of a deleted record is gone")
    func zoneDeletedAndMadeAgain() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            let lisbon = await iphone.privateKey("lisbon")
            try await iphone.save(lisbon, type: "Destination", fields: Journal.destination("Lisbon"))
            try await iphone.sync()
            try await ipad.sync()

            // Not sent yet on the iPad: a new record, and an edit of one the deletion takes.
            let faro = await ipad.privateKey("faro")
            try await ipad.save(faro, type: "Destination", fields: Journal.destination("Faro"))
            try await ipad.save(lisbon, type: "Destination", fields: ["caption": .string("Lisboa")])

            // Deleted and made again, twice, before the iPad hears of it.
            for name in ["porto", "braga"] {
                try await iphone.purgeObjectsAndRecordsInZone(lisbon.zoneID, scope: .private)
                #expect(try await iphone.records(in: .private).isEmpty)
                let key = await iphone.privateKey(name)
                try await iphone.save(key, type: "Destination", fields: Journal.destination(name))
                try await iphone.sync()
            }
            try await ipad.sync()
            try await iphone.sync()

            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            let prefix = "\(lisbon.owner)/\(lisbon.zoneName)/"
            #expect(Set(server.keys) == [prefix + "braga", prefix + "faro"])
            #expect(try await ipad.records(in: .private).map(\.key.recordName).sorted() == ["braga", "faro"])
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }
}
