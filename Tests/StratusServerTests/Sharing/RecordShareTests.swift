import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Record-hierarchy shares over HTTP with three accounts: alice owns, bob is invited, carol is not.
@Suite("Sharing: record-hierarchy shares")
struct RecordShareTests {
    /// alice's zone "Trips": a root with two children, a record outside the hierarchy, and a
    /// share of the root for bob. Returns the share record.
    static func shareTrip(
        _ server: TestServer, with participants: [ShareParticipant], publicPermission: SharePermission = .none
    ) async throws -> Record {
        try await server.createZone("Trips")
        var root = Records.destination("root", caption: "Lisbon")
        root.createShortGUID = true
        let results = try await server.modify([
            RecordOperation(.create, root),
            RecordOperation(.create, Records.destination("child-1", caption: "Day 1").child(of: "root")),
            RecordOperation(.create, Records.destination("child-2", caption: "Day 2").child(of: "root")),
            Records.create("outside", caption: "Not shared"),
            TestServer.createShare("share-1", root: "root", participants: participants, publicPermission: publicPermission),
        ], zone: "Trips")
        #expect(results.allSatisfy { $0.record != nil }, "\(results)")
        // The root comes back as the share left it: pointing at the share, with its current tag.
        #expect(results.first?.record?.share?.recordName == "share-1")
        let stored = try await server.lookup(["root"], zone: "Trips").first?.record
        #expect(results.first?.record?.recordChangeTag == stored?.recordChangeTag)
        return try #require(results.last?.record)
    }

    @Test("alice shares a hierarchy with bob: resolve, accept, see exactly the hierarchy, edit, lose write, leave")
    func recordShareWalk() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            let guid = try #require(share.shortGUID)
            #expect(share.url?.hasSuffix("/share/\(guid)") == true)
            #expect(share.owner?.userIdentity?.userRecordName == server.userRecordName("alice"))
            #expect(share.currentUserParticipant?.type == .owner)
            #expect(share.participants?.map(\.acceptanceStatus) == [.accepted, .invited])
            #expect(share.participants?.last?.userIdentity?.userRecordName == server.userRecordName("bob"))
            let root = try #require(try await server.lookup(["root"], zone: "Trips").first?.record)
            #expect(root.share?.recordName == "share-1")
            #expect(root.shortGUID == guid)

            // Before accepting, bob's shared database is empty.
            #expect(try await server.sharedDatabaseChanges(as: "bob").zones.isEmpty)
            let early = try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob")
            #expect(early.first?.error?.serverErrorCode == .zoneNotFound)

            let metadata = try #require(try await server.resolve(guid, as: "bob").value)
            #expect(metadata.participantStatus == .invited)
            #expect(metadata.participantPermission == .readWrite)
            #expect(metadata.participantRole == .user)
            #expect(metadata.databaseScope == "SHARED")
            #expect(metadata.rootRecordName == "root")
            #expect(metadata.rootRecord?.fields?["caption"]?.value == .string("Lisbon"))
            #expect(metadata.zoneID == server.zoneID("Trips", of: "alice"))
            #expect(metadata.ownerIdentity.userRecordName == server.userRecordName("alice"))

            let accepted = try #require(try await server.accept(guid, as: "bob").value)
            #expect(accepted.participantStatus == .accepted)
            let database = try await server.sharedDatabaseChanges(as: "bob")
            #expect(database.zones.map(\.zoneID) == [server.zoneID("Trips", of: "alice")])
            #expect(database.zones.first?.deleted == nil)
            let visible = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob")
            #expect(TestServer.liveNames(visible) == ["child-1", "child-2", "root", "share-1"])
            let outside = try await server.sharedLookup(["outside", "root"], zone: "Trips", of: "alice", as: "bob")
            #expect(outside.first?.error?.serverErrorCode == .notFound)
            #expect(outside.last?.record?.zoneID == server.zoneID("Trips", of: "alice"))

            // bob edits a child: alice's feed shows the edit with bob as its modifier.
            guard case .success(let before) = try await server.zoneChanges("Trips") else { throw TestFailure("alice's feed") }
            let child = try #require(visible.value?.records.first { $0.recordName == "child-1" })
            var edit = Record(recordName: "child-1", recordType: "Destination", recordChangeTag: child.recordChangeTag)
            edit.fields = ["caption": .string("Day 1, by bob")]
            let edited = try await server.sharedModify([RecordOperation(.update, edit)], zone: "Trips", of: "alice", as: "bob")
            #expect(edited.first?.record?.modified?.userRecordName == server.userRecordName("bob"))
            guard case .success(let after) = try await server.zoneChanges("Trips", token: before.syncToken) else {
                throw TestFailure("alice's incremental feed")
            }
            let seen = try #require(after.records.first { $0.recordName == "child-1" })
            #expect(seen.fields?["caption"]?.value == .string("Day 1, by bob"))
            #expect(seen.modified?.userRecordName == server.userRecordName("bob"))

            // alice makes bob READ_ONLY: every write of his is denied per item, his reads work.
            let current = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            let downgraded = try await server.modify(
                [TestServer.updateShare(current, participants: [server.invite("bob", .readOnly)])], zone: "Trips"
            )
            #expect(downgraded.first?.record?.participants?.last?.permission == .readOnly)
            let child2 = try #require(try await server.sharedLookup(["child-2"], zone: "Trips", of: "alice", as: "bob").first?.record)
            var attempt = Record(recordName: "child-2", recordType: "Destination", recordChangeTag: child2.recordChangeTag)
            attempt.fields = ["caption": .string("bob was here")]
            let denied: [(String, RecordOperation)] = [
                ("update", RecordOperation(.update, attempt)),
                ("forceUpdate", RecordOperation(.forceUpdate, attempt)),
                ("create child", RecordOperation(.create, Records.destination("child-3", caption: "new").child(of: "root"))),
                ("delete child", RecordOperation(.forceDelete, Record(recordName: "child-2"))),
            ]
            for (label, operation) in denied {
                let result = try await server.sharedModify([operation], zone: "Trips", of: "alice", as: "bob")
                #expect(result.first?.error?.serverErrorCode == .accessDenied, "\(label): \(result)")
            }
            let unchanged = try #require(try await server.lookup(["child-2", "child-3"], zone: "Trips").first?.record)
            #expect(unchanged.recordChangeTag == child2.recordChangeTag)
            #expect(try await server.lookup(["child-3"], zone: "Trips").first?.error?.serverErrorCode == .notFound)
            #expect(try await server.sharedLookup(["child-2"], zone: "Trips", of: "alice", as: "bob").first?.record != nil)

            // carol is not invited: she can neither resolve nor accept nor read.
            #expect(try await server.resolve(guid, as: "carol").error?.serverErrorCode == .accessDenied)
            #expect(try await server.accept(guid, as: "carol").error?.serverErrorCode == .accessDenied)
            #expect(try await server.sharedDatabaseChanges(as: "carol").zones.isEmpty)
            let carolReads = try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "carol")
            #expect(carolReads.first?.error?.serverErrorCode == .zoneNotFound)
            let carolZone = try await server.sharedZoneChanges("Trips", of: "alice", as: "carol")
            #expect(carolZone.error?.serverErrorCode == .zoneNotFound)

            // bob leaves by deleting the share in his shared database.
            let left = try await server.sharedModify(
                [RecordOperation(.forceDelete, Record(recordName: "share-1"))], zone: "Trips", of: "alice", as: "bob"
            )
            #expect(left.first?.record?.deleted == true)
            let afterLeaving = try await server.sharedDatabaseChanges(as: "bob", token: database.syncToken)
            #expect(afterLeaving.zones.map(\.zoneID) == [server.zoneID("Trips", of: "alice")])
            #expect(afterLeaving.zones.first?.deleted == true)
            let ownerView = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            #expect(ownerView.participants?.last?.acceptanceStatus == .removed)
            let gone = try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob")
            #expect(gone.first?.error?.serverErrorCode == .zoneNotFound)
        }
    }

    @Test("alice stops sharing: bob's feed reports the zone deleted; re-sharing keeps the URL and shows current data")
    func stopAndReshare() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            let guid = try #require(share.shortGUID)
            _ = try await server.accept(guid, as: "bob")
            let bobDatabase = try await server.sharedDatabaseChanges(as: "bob")
            let bobZone = try #require(try await server.sharedZoneChanges("Trips", of: "alice", as: "bob").value)

            // Accepting changed the share record: a delete with the old tag conflicts.
            let stale = try await server.modify([RecordOperation(.delete, share)], zone: "Trips")
            #expect(stale.first?.error?.serverErrorCode == .conflict)
            let current = try #require(stale.first?.error?.serverRecord)
            let stopped = try await server.modify([RecordOperation(.delete, current)], zone: "Trips")
            #expect(stopped.first?.record?.deleted == true)
            let feed = try await server.sharedDatabaseChanges(as: "bob", token: bobDatabase.syncToken)
            #expect(feed.zones.first?.deleted == true)
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.error?.serverErrorCode == .zoneNotFound)
            #expect(try await server.resolve(guid, as: "bob").error?.serverErrorCode == .notFound)
            // alice's records are intact; the root no longer points at a share.
            let owned = try await server.lookup(["root", "child-1", "child-2", "outside"], zone: "Trips")
            #expect(owned.allSatisfy { $0.record != nil })
            #expect(owned.first?.record?.share == nil)

            // alice edits, then shares again: same URL, bob accepts and sees the current data.
            var root = try #require(owned.first?.record)
            root.fields = ["caption": .string("Lisbon, again")]
            _ = try await server.modify([RecordOperation(.update, root)], zone: "Trips")
            let again = try await server.modify(
                [TestServer.createShare("share-2", root: "root", participants: [server.invite("bob", .readWrite)])], zone: "Trips"
            )
            #expect(again.first?.record?.shortGUID == guid)
            #expect(try await server.accept(guid, as: "bob").value?.participantStatus == .accepted)
            let back = try await server.sharedDatabaseChanges(as: "bob", token: feed.syncToken)
            #expect(back.zones.first?.deleted == nil)
            let fresh = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob")
            #expect(TestServer.liveNames(fresh) == ["child-1", "child-2", "root", "share-2"])
            let freshRoot = fresh.value?.records.first { $0.recordName == "root" }
            #expect(freshRoot?.fields?["caption"]?.value == .string("Lisbon, again"))
            // A zone token from before the removal is expired for bob.
            let expired = try await server.sharedZoneChanges("Trips", of: "alice", as: "bob", token: bobZone.syncToken)
            #expect(expired.error?.serverErrorCode == .badRequest)
            #expect(expired.error?.nativeErrorCode == 21)
        }
    }

    @Test("only the owner deletes the root; deleting it deletes the share; zones in the shared database are the owner's")
    func rootDeletion() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            let guid = try #require(share.shortGUID)
            _ = try await server.accept(guid, as: "bob")
            let bobDatabase = try await server.sharedDatabaseChanges(as: "bob")

            let cases: [(String, RecordOperation, ServerErrorCode?)] = [
                ("bob deletes the root", RecordOperation(.forceDelete, Record(recordName: "root")), .accessDenied),
                ("bob creates outside the hierarchy", Records.create("loose"), .accessDenied),
                ("bob overwrites a record outside it", Records.create("outside").withParent("root"), .accessDenied),
                ("bob deletes a child", RecordOperation(.forceDelete, Record(recordName: "child-2")), nil),
                ("bob creates a child", RecordOperation(.create, Records.destination("child-3", caption: "new").child(of: "child-1")), nil),
            ]
            for (label, operation, expected) in cases {
                let result = try await server.sharedModify([operation], zone: "Trips", of: "alice", as: "bob")
                #expect(result.first?.error?.serverErrorCode == expected, "\(label): \(result)")
            }
            #expect(try await server.lookup(["outside"], zone: "Trips").first?.record?.fields?["caption"]?.value == .string("Not shared"))
            // (A participant's zones/modify delete leaves the zone's shares: LeavingTests.)
            let grandchild = try await server.sharedLookup(["child-3"], zone: "Trips", of: "alice", as: "bob")
            #expect(grandchild.first?.record?.parent?.recordName == "child-1")

            let deleted = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "root"))], zone: "Trips")
            #expect(deleted.first?.record?.deleted == true)
            #expect(try await server.lookup(["share-1"], zone: "Trips").first?.error?.serverErrorCode == .notFound)
            #expect(try await server.resolve(guid, as: "bob").error?.serverErrorCode == .notFound)
            let feed = try await server.sharedDatabaseChanges(as: "bob", token: bobDatabase.syncToken)
            #expect(feed.zones.first?.deleted == true)
        }
    }
}

extension RecordOperation {
    /// The operation with its record under `parent`.
    func withParent(_ parent: String) -> RecordOperation {
        RecordOperation(operationType, record.child(of: parent), desiredKeys: desiredKeys)
    }
}
