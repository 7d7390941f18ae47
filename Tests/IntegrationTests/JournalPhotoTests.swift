import Foundation
import StratusKit
import StratusModel
import Testing

/// The journal's photos as CloudKit assets: saved with a destination on one device, uploaded
/// when it syncs, downloaded by the account's other device and by the account it is shared with.
@Suite("Journal: photos")
struct JournalPhotoTests {
    @Test("alice's iPhone saves a destination with a photo; her iPad and bob (shared trip) get the same bytes",
          arguments: SimulatedDevice.MirroringStyle.allCases)
    func photoReachesEveryDevice(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: style)
            let devices = [(iphone, "alice"), (ipad, "alice"), (bob, "bob")]

            // A photo file from the camera roll.
            let photo = journal.directory.appendingPathComponent("tram.jpg")
            let bytes = Data((0..<1_200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
            try bytes.write(to: photo)
            let original = await iphone.privateKey("lisbon")
            var fields = Journal.destination("Lisbon", details: "Tram 28")
            fields["photo"] = try await iphone.assetField(contentsOf: photo)
            try await iphone.save(original, type: "Destination", fields: fields)
            try await iphone.sync()

            try await ipad.sync()
            let onIPad = try #require(try await ipad.assetFile(original, field: "photo"), "the iPad downloaded the photo")
            #expect(try Data(contentsOf: onIPad) == bytes)

            // alice shares the trip with bob; he accepts and gets the photo too.
            let share = try await iphone.share(original, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            let lisbon = try #require(try await iphone.currentKey(original))
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            let shared = RecordKey(scope: .shared, zoneID: lisbon.zoneID, recordName: "lisbon")
            let onBob = try #require(try await bob.assetFile(shared, field: "photo"), "bob downloaded the shared photo")
            #expect(try Data(contentsOf: onBob) == bytes)

            // bob replaces the photo; alice's devices get his bytes, and the edit uploads only once.
            let replacement = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            try await bob.save(shared, type: "Destination", fields: ["photo": try await bob.assetField(replacement)])
            try await bob.sync()
            try await iphone.sync()
            try await ipad.sync()
            let onIPadNow = try #require(try await ipad.currentKey(original))
            let replaced = try #require(try await ipad.assetFile(onIPadNow, field: "photo"))
            #expect(try Data(contentsOf: replaced) == replacement)
            // Each photo is uploaded only by the device that took it (the iPhone's also again when
            // its first send met no zone yet, and in NSPersistentCloudKitContainer style when the
            // share moved the record into a new zone: a new record). A later edit of another field
            // sends the photo back as the server holds it, without uploading it again.
            let uploadsBefore = await iphone.events.filter { $0.name == "assetUploaded" }.count
            #expect(uploadsBefore >= 1)
            try await iphone.save(lisbon, type: "Destination", fields: ["details": .string("Tram 28, at dawn")])
            try await iphone.sync()
            #expect(await iphone.events.filter { $0.name == "assetUploaded" }.count == uploadsBefore)
            #expect(await bob.events.filter { $0.name == "assetUploaded" }.count == 1)
            #expect(await ipad.events.filter { $0.name == "assetUploaded" }.isEmpty)
            #expect(await iphone.events.contains { $0.name == "assetMissing" } == false)
            try await journal.assertConsistent(devices)
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
        }
    }
}
