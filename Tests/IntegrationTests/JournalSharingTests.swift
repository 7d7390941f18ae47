import Foundation
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// The travel journal shared between accounts: alice shares, bob accepts and edits, loses write
/// permission, loses the share; bob signs out and carol signs in on his phone.
@Suite("Journal: sharing between accounts")
struct JournalSharingTests {
    @Test("3–5. share, accept, edit; read-only; stop sharing", arguments: SimulatedDevice.MirroringStyle.allCases)
    func shareEditRestrictStop(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: style)
            let carol = try await journal.device("carol-iphone", signedInAs: "carol", style: style)
            let devices = [(alice, "alice"), (bob, "bob"), (carol, "carol")]
            let unshared = await alice.privateKey("lisbon")
            try await alice.save(unshared, type: "Destination", fields: Journal.destination("Lisbon", details: "Trams"))
            try await alice.save(await alice.privateKey("porto"), type: "Destination", fields: Journal.destination("Porto"))

            // 3. alice shares Lisbon with bob, READ_WRITE; bob accepts from the URL. (In the
            // NSPersistentCloudKitContainer style Lisbon moved into its share's zone.)
            let share = try await alice.share(unshared, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            let lisbon = try #require(try await alice.currentKey(unshared))
            let url = try #require(share.url)
            try await bob.acceptShareInvitations(from: [url])
            let shared = RecordKey(scope: .shared, zoneID: lisbon.zoneID, recordName: "lisbon")
            #expect(try await bob.records(in: .shared).filter { $0.recordType == "Destination" }.map(\.key) == [shared])
            #expect(try await alice.isShared(lisbon))
            #expect(try await bob.isShared(shared))
            #expect(try await alice.isOwner(lisbon))
            #expect(try await !bob.isOwner(shared))
            #expect(try await bob.canUpdateRecord(shared))
            // Only the owner deletes a hierarchy's root; a zone-wide share has none.
            #expect(try await bob.canDeleteRecord(shared) == (style == .persistentCloudKitContainer))
            #expect(try await alice.fetchShares(matching: [lisbon])[lisbon]?.recordID.recordName == share.recordID.recordName)

            try await bob.save(shared, type: "Destination", fields: ["details": .string("Trams, by bob")])
            try await bob.sync()
            try await alice.sync()
            #expect(try await alice.store.record(lisbon)?.fields["details"]?.value == .string("Trams, by bob"))
            try await journal.assertConsistent(devices)

            // 4. alice makes bob read-only: his forced edit is refused, reported, and undone.
            try await alice.setParticipants([.invite(email: "bob@example.com", permission: .readOnly)], ofShareCovering: lisbon)
            try await bob.sync()
            #expect(try await !bob.canUpdateRecord(shared))
            try await bob.save(shared, type: "Destination", fields: ["details": .string("bob insists")])
            try await bob.sync()
            let refusals = await bob.events.filter { $0.failures["lisbon"] == .permissionFailure }
            #expect(refusals.count == 1)
            #expect(try await bob.store.record(shared)?.fields["details"]?.value == .string("Trams, by bob"))
            #expect(try await bob.store.pendingExports(in: .shared).isEmpty)
            // A record bob creates there is refused for good too: it goes back to the server's
            // truth (no such record), never a silent local-only record.
            let note = RecordKey(scope: .shared, zoneID: lisbon.zoneID, recordName: "bobs-note")
            try await bob.save(note, type: "Note", fields: ["text": .string("bob's note")], parent: "lisbon")
            try await bob.sync()
            #expect(await bob.events.contains { $0.failures["bobs-note"] == .permissionFailure })
            #expect(try await bob.store.record(note) == nil, "no local-only copy of the refused create")
            #expect(try await bob.store.pendingExports(in: .shared).isEmpty)
            // CloudKit's API reports the same refusal for the record itself.
            let direct = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon", zoneID: CKRecordZone.ID(wire: lisbon.zoneID)))
            direct["details"] = "direct"
            let database = try journal.container(as: "bob").sharedCloudDatabase
            let (saved, _) = try await database.modifyRecords(saving: [direct], deleting: [], savePolicy: .allKeys, atomically: false)
            let refusal = try #require(saved[direct.recordID])
            #expect(throws: CKError.self) { try refusal.get() }
            if case .failure(let error as CKError) = refusal { #expect(error.code == .permissionFailure) }
            try await journal.assertConsistent(devices)

            // 5. alice stops sharing: bob's shared mirror no longer holds Lisbon.
            try await alice.stopSharing(lisbon)
            try await bob.sync()
            #expect(try await bob.records(in: .shared).isEmpty)
            #expect(try await alice.store.record(lisbon) != nil)
            #expect(try await !alice.isShared(lisbon))
            try await journal.assertConsistent(devices)
        }
    }

    @Test("6. bob signs out: his local data is purged; carol signs in on that device: an empty store", arguments: SimulatedDevice.MirroringStyle.allCases)
    func signOutAndSwitch(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: style)
            let lisbon = await alice.privateKey("lisbon")
            try await alice.save(lisbon, type: "Destination", fields: Journal.destination("Lisbon"))
            let share = try await alice.share(lisbon, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            try await bob.save(await bob.privateKey("bobs-own"), type: "Destination", fields: Journal.destination("Berlin"))
            try await bob.sync()
            #expect(try await !bob.records(in: .shared).isEmpty)
            #expect(try await bob.records(in: .private).count == 1)

            try await bob.signOut()
            #expect(try await bob.records(in: .shared).isEmpty)
            #expect(try await bob.records(in: .private).isEmpty)
            #expect(try await bob.store.history().isEmpty)

            try await bob.signIn(journal.account("carol"))
            try await bob.sync()
            #expect(try await bob.records(in: .shared).isEmpty)
            #expect(try await bob.records(in: .private).isEmpty)
            #expect(try await bob.store.account() == journal.userRecordName("carol"))
            try await journal.assertConsistent([(alice, "alice"), (bob, "carol")])
        }
    }

    @Test("purgeObjectsAndRecordsInZone: bob leaves a shared zone; alice deletes her own zone everywhere", arguments: SimulatedDevice.MirroringStyle.allCases)
    func purgeZones(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let alice = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice", style: style)
            let bob = try await journal.device("bob-iphone", signedInAs: "bob", style: style)
            let unshared = await alice.privateKey("lisbon")
            try await alice.save(unshared, type: "Destination", fields: Journal.destination("Lisbon"))
            let share = try await alice.share(unshared, with: [.invite(email: "bob@example.com", permission: .readWrite)])
            let lisbon = try #require(try await alice.currentKey(unshared))
            try await bob.acceptShareInvitations(from: [try #require(share.url)])
            #expect(try await !bob.records(in: .shared).isEmpty)

            try await bob.purgeObjectsAndRecordsInZone(lisbon.zoneID, scope: .shared)
            try await bob.sync()
            #expect(try await bob.records(in: .shared).isEmpty)
            try await alice.sync()
            let participants = try await alice.fetchShares(matching: [lisbon])[lisbon]?.participants ?? []
            // Bob is gone from alice's share, as CKShare lists it (a removed participant is omitted).
            #expect(!participants.isEmpty && participants.allSatisfy { $0.role == .owner }, "\(participants)")
            #expect(try await alice.store.record(lisbon) != nil)

            try await ipad.sync()
            #expect(try await ipad.records(in: .private).count == 2)
            try await alice.purgeObjectsAndRecordsInZone(lisbon.zoneID, scope: .private)
            try await ipad.sync()
            #expect(try await ipad.records(in: .private).isEmpty)
            try await journal.assertConsistent([(alice, "alice"), (ipad, "alice"), (bob, "bob")])
        }
    }

    @Test("the store file moves to a new path without losing records, history or pending changes", arguments: SimulatedDevice.MirroringStyle.allCases)
    func storeMoves(style: SimulatedDevice.MirroringStyle) async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice", style: style)
            try await iphone.setMirroring(false)
            try await iphone.save(await iphone.privateKey("lisbon"), type: "Destination", fields: Journal.destination("Lisbon"))
            let before = try await iphone.store.history().count
            try await iphone.moveStore(to: journal.storePath("alice-iphone-moved"))
            #expect(try await iphone.store.history().count == before)
            #expect(try await iphone.store.pendingExports(in: .private).count == 1)
            try await iphone.setMirroring(true)
            try await iphone.sync()
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).count == 1)
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }
}
