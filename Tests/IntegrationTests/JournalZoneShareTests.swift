import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// Sharing the way NSPersistentCloudKitContainer does it: `share(_:to: nil)` makes a zone per
/// share and moves the object graph there; `share(_:to: existing)` moves more into that zone; a
/// crash in the middle of a share is finished from the store file.
@Suite("Journal: a zone per share (NSPersistentCloudKitContainer)")
struct JournalZoneShareTests {
    static let style = SimulatedDevice.MirroringStyle.persistentCloudKitContainer

    /// A destination with two notes pointing at it (Core Data's to-many: the key on the notes).
    static func destinationWithNotes(_ name: String, on device: SimulatedDevice) async throws -> RecordKey {
        let destination = await device.privateKey(name)
        try await device.save(destination, type: "Destination", fields: Journal.destination(name.capitalized))
        for index in 1...2 {
            try await device.save(
                await device.privateKey("\(name)-note\(index)"), type: "Note",
                fields: ["text": .string("note \(index)"), "destination": .string(name)]
            )
        }
        return destination
    }

    /// The zones of alice's private database on the server, each with its record names.
    static func serverZones(_ journal: Journal) async throws -> [String: Set<String>] {
        var zones: [String: Set<String>] = [:]
        for key in try await journal.serverSnapshot(as: "alice", scope: .private).keys {
            let parts = key.split(separator: "/", maxSplits: 2).map(String.init)
            zones[parts[1], default: []].insert(parts[2])
        }
        return zones
    }

    @Test("a destination with two notes moves into a new share zone; the iPad converges; bob sees all three; more joins the same zone; another share, another zone")
    func shareMovesTheGraphIntoItsOwnZone() async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: Self.style)
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: Self.style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: Self.style)
            let lisbon = try await Self.destinationWithNotes("lisbon", on: alice)
            try await alice.sync()
            try await ipad.sync()
            #expect(try await ipad.records(in: .private).count == 3)

            let share = try await alice.share([lisbon], to: nil, title: "Lisbon trip", participants: [.invite(email: "bob@example.com", permission: .readWrite)])
            let shareZone = share.recordID.zoneID.zoneName
            #expect(shareZone.hasPrefix("com.apple.coredata.cloudkit.share.") && UUID(uuidString: String(shareZone.dropFirst(34))) != nil)
            #expect(share[CKShare.SystemFieldKey.title] as? String == "Lisbon trip")
            var zones = try await Self.serverZones(journal)
            #expect(zones[shareZone] == ["cloudkit.zoneshare", "lisbon", "lisbon-note1", "lisbon-note2"])
            #expect(zones[SimulatedDevice.coreDataZoneName, default: []].isEmpty)
            // On the server the records carry Core Data's names.
            let stored = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(stored["\(journal.userRecordName("alice"))/\(shareZone)/lisbon-note1"]?["CD_destination"] == .string("lisbon"))
            // Every record names its concrete entity in a STRING field, as NSPersistentCloudKitContainer's do.
            #expect(stored["\(journal.userRecordName("alice"))/\(shareZone)/lisbon-note1"]?["CD_entityName"] == .string("Note"))
            #expect(stored["\(journal.userRecordName("alice"))/\(shareZone)/lisbon"]?["CD_entityName"] == .string("Destination"))
            let note = try await journal.container(as: "alice").privateCloudDatabase.record(
                for: CKRecord.ID(recordName: "lisbon-note1", zoneID: CKRecordZone.ID(zoneName: shareZone))
            )
            #expect(note["CD_entityName"] is String)

            // The iPad fetches the move: deletions in the old zone, creations in the new one, now shared.
            try await ipad.sync()
            let moved = RecordKey(scope: .private, zoneID: ZoneID(zoneName: shareZone, ownerRecordName: journal.userRecordName("alice")), recordName: "lisbon")
            #expect(try await ipad.records(in: .private).filter { $0.recordType != "cloudkit.share" }.map(\.key.zoneName) == Array(repeating: shareZone, count: 3))
            #expect(try await ipad.isShared(moved))
            #expect(try await ipad.fetchShares(matching: [moved])[moved]?.recordID.recordName == CKRecordNameZoneWideShare)

            // bob accepts: the share zone with every moved object.
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            let bobs = try await bob.records(in: .shared).filter { $0.recordType != "cloudkit.share" }
            #expect(Set(bobs.map(\.key.recordName)) == ["lisbon", "lisbon-note1", "lisbon-note2"])
            #expect(Set(bobs.map(\.key.zoneName)) == [shareZone])

            // A second destination shared into the same share lands in the same zone.
            let porto = try await Self.destinationWithNotes("porto", on: alice)
            _ = try await alice.share([porto], to: share)
            zones = try await Self.serverZones(journal)
            #expect(zones[shareZone]?.isSuperset(of: ["porto", "porto-note1", "porto-note2"]) == true)
            try await bob.sync()
            #expect(try await bob.records(in: .shared).filter { $0.recordType != "cloudkit.share" }.count == 6)

            // A separate share makes a separate zone.
            let rome = try await Self.destinationWithNotes("rome", on: alice)
            let second = try await alice.share([rome], to: nil, title: "Rome")
            #expect(second.recordID.zoneID.zoneName != shareZone)
            zones = try await Self.serverZones(journal)
            #expect(zones.keys.filter { $0.hasPrefix("com.apple.coredata.cloudkit.share.") }.count == 2)

            // Sharing an object already shared is refused.
            await #expect(throws: CKError.self) { try await alice.share([try #require(try await alice.currentKey(rome))], to: nil) }
            try await journal.assertConsistent([(alice, "alice"), (ipad, "alice"), (bob, "bob")])
        }
    }

    @Test("persistUpdatedShare saves participant changes; stopping sharing leaves the objects, unshared, in their zone")
    func updateAndStopSharing() async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: Self.style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: Self.style)
            let lisbon = try await Self.destinationWithNotes("lisbon", on: alice)
            var share = try await alice.share([lisbon], to: nil, participants: [.invite(email: "bob@example.com", permission: .readWrite)])
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            let moved = try #require(try await alice.currentKey(lisbon))

            // The UICloudSharingController flow: the app edits the share, then persists it.
            share = try #require(try await alice.fetchShares(matching: [moved])[moved])
            let participant = try #require(share.participants.first { $0.userIdentity.lookupInfo?.emailAddress == "bob@example.com" })
            participant.permission = .readOnly
            _ = try await alice.persistUpdatedShare(share)
            try await bob.sync()
            let bobsLisbon = RecordKey(scope: .shared, zoneID: moved.zoneID, recordName: "lisbon")
            #expect(try await !bob.canUpdateRecord(bobsLisbon))

            try await alice.stopSharing(moved)
            try await bob.sync()
            #expect(try await bob.records(in: .shared).isEmpty)
            #expect(try await !alice.isShared(moved))
            #expect(try await alice.records(in: .private).filter { $0.key.zoneID == moved.zoneID }.count == 3)
            try await journal.assertConsistent([(alice, "alice"), (bob, "bob")])
        }
    }

    @Test("killed after the share zone exists, before the move: rebuilt from its file, the device finishes it, nothing lost or doubled")
    func crashInTheMiddleOfAShare() async throws {
        try await Journal.run { journal in
            var alice = try await journal.device("alice-iphone", signedInAs: "alice", style: Self.style)
            let lisbon = try await Self.destinationWithNotes("lisbon", on: alice)
            try await alice.sync()
            await alice.setCrashAfterShareZoneCreated(true)
            await #expect(throws: CKError.self) { try await alice.share([lisbon], to: nil, title: "Lisbon") }
            #expect(try await alice.store.pendingMove() != nil)

            // The process dies; the app starts again from the same file.
            alice = try SimulatedDevice(
                name: "alice-iphone", serverURL: journal.serverURL, container: Journal.container,
                storePath: journal.storePath("alice-iphone"), style: Self.style
            )
            try await alice.signIn(journal.account("alice"))
            #expect(try await alice.store.pendingMove() == nil)
            try await alice.sync()
            let local = try await alice.records(in: .private).filter { $0.recordType != "cloudkit.share" }
            #expect(local.count == 3)
            #expect(Set(local.map(\.key.zoneName)).count == 1 && local.first?.key.zoneName.hasPrefix(SimulatedDevice.shareZonePrefix) == true)
            let zones = try await Self.serverZones(journal)
            #expect(zones.values.map(\.count).reduce(0, +) == 4)
            #expect(zones[SimulatedDevice.coreDataZoneName, default: []].isEmpty)
            try await journal.assertConsistent([(alice, "alice")])
        }
    }

    @Test("a move's creations fail in the share zone: its deletions wait, every object stays in a server zone, the next sync moves them")
    func moveDeletionsWaitForTheirCreations() async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: Self.style)
            let lisbon = try await Self.destinationWithNotes("lisbon", on: alice)
            try await alice.sync()
            // The next upload of a destination fails: the move's creations in the share zone (the
            // old zone's deletions name no type, the share record is another type).
            try await journal.admin("faults", CreateFaultRequest(
                match: FaultMatch(endpoint: "records/modify", recordType: "CD_Destination"), action: .error(.badRequest, retryAfter: nil), count: 1
            ))
            await #expect(throws: CKError.self) { try await alice.share([lisbon], to: nil, title: "Lisbon") }
            let shareZone = try #require(try await alice.currentKey(lisbon)?.zoneName)
            var zones = try await Self.serverZones(journal)
            #expect(zones[SimulatedDevice.coreDataZoneName, default: []].count == 3, "nothing left its zone: \(zones)")

            try await alice.sync()
            zones = try await Self.serverZones(journal)
            #expect(zones[SimulatedDevice.coreDataZoneName, default: []].isEmpty, "\(zones)")
            #expect(zones[shareZone, default: []].count == 4, "the three objects and the share: \(zones)")
            try await journal.assertConsistent([(alice, "alice")])
        }
    }

    @Test("a move finished after another device's edit carries that edit into the share's zone, not the mover's older copy")
    func aResumedMoveCarriesTheLatestServerVersion() async throws {
        try await Journal.run { journal in
            var ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: Self.style)
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice", style: Self.style)
            let lisbon = try await Self.destinationWithNotes("lisbon", on: ipad)
            try await ipad.sync()
            try await iphone.sync()
            await ipad.setCrashAfterShareZoneCreated(true)
            await #expect(throws: CKError.self) { try await ipad.share([lisbon], to: nil, title: "Lisbon") }

            // While the iPad is down, the iPhone edits the destination.
            try await iphone.save(lisbon, type: "Destination", fields: ["caption": .string("Lisboa")])
            try await iphone.sync()

            ipad = try SimulatedDevice(
                name: "alice-ipad", serverURL: journal.serverURL, container: Journal.container,
                storePath: journal.storePath("alice-ipad"), style: Self.style
            )
            try await ipad.signIn(journal.account("alice"))
            try await ipad.sync()
            try await iphone.sync()
            let moved = try #require(try await ipad.currentKey(lisbon))
            #expect(moved.zoneName.hasPrefix(SimulatedDevice.shareZonePrefix))
            for device in [ipad, iphone] {
                #expect(try await device.store.record(moved)?.fields["caption"]?.value == .string("Lisboa"))
            }
            try await journal.assertConsistent([(ipad, "alice"), (iphone, "alice")])
        }
    }
}
