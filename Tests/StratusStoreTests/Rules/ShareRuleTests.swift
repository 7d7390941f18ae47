import StratusModel
import StratusStore
import Testing

/// CloudKit's sharing rules, each stated once and run on every store: a share ties itself to
/// its root, one share per root and one kind per zone, participant limits, acceptance and
/// leaving, what a participant's shared database reports, stopping sharing, and what a
/// hierarchy share covers as records move.
@Suite("Share rules")
struct ShareRuleTests {
    typealias F = RuleFixture

    @Test("a hierarchy share stamps its root; a root takes one share", arguments: StoreKind.allCases)
    func oneSharePerRoot(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("root")]))
            let shared = try await store.apply(F.batch([F.share("s1", root: "root")]))
            let share = try #require(shared.saved[0])
            let root = try #require(try await store.records(named: ["root"], in: F.zone).first ?? nil)
            #expect(root.shareName == "s1" && root.shortGUID == share.shortGUID && root.seq > share.seq)
            guard case .alreadyShared = try await store.apply(F.batch([F.share("s2", root: "root")])).failures[0] else {
                throw TestFailure("a second share of one root was accepted")
            }
            #expect(try await store.shares(in: F.zone).map(\.record.name) == ["s1"])
        }
    }

    @Test("a zone-wide share and record shares exclude each other until one is deleted", arguments: StoreKind.allCases)
    func oneKindPerZone(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("root"), F.share("s1", root: "root")]))
            guard case .alreadyShared = try await store.apply(F.batch([F.share("zone-share", root: nil)])).failures[0] else {
                throw TestFailure("a zone-wide share beside a record share was accepted")
            }
            let swapped = try await store.apply(F.batch([F.delete("s1"), F.share("zone-share", root: nil)]))
            #expect(swapped.failures == [nil, nil])
            #expect(try await store.records(named: ["root"], in: F.zone).first??.shareName == nil)
            guard case .alreadyShared = try await store.apply(F.batch([F.share("s3", root: "root")])).failures[0] else {
                throw TestFailure("a record share beside a zone-wide share was accepted")
            }
        }
    }

    @Test("a share holds no more participants than its limit", arguments: StoreKind.allCases)
    func participantLimit(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let carol = ParticipantSpec(id: nil, userRecordName: "_carol", email: nil, role: .user, permission: .readOnly, status: nil)
            let full = try await store.apply(F.batch([F.save("root"), F.share("s1", root: "root", participants: [F.bobInvited(), carol], limit: 2)]))
            guard case .invalid(let reason) = full.failures[1] else { throw TestFailure("the limit was passed: \(full.outcomes)") }
            #expect(reason.contains("at most 2 participants"))
        }
    }

    @Test("an accepted participant sees the zone until removed; the shared feed says so", arguments: StoreKind.allCases)
    func acceptAndRemove(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let created = try await store.apply(F.batch([F.save("root"), F.share("s1", root: "root", participants: [F.bobInvited()])]))
            let guid = try #require(created.saved[1]?.shortGUID)
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).isEmpty)
            guard case .accepted(let share) = try await store.accept(shortGUID: guid, by: F.acceptor(F.bob)) else {
                throw TestFailure("bob could not accept")
            }
            #expect(share.participant(user: F.bob)?.status == .accepted)
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).map(\.zone.name) == ["Z"])
            #expect(try await store.accept(shortGUID: guid, by: F.acceptor("_carol")) == .notInvited)
            let before = try await store.currentSequence()

            let removed = try await store.apply(F.batch([F.share("s1", root: nil, participants: [F.bobInvited(.removed)], action: .save(replace: false))]))
            #expect(removed.failures == [nil])
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).isEmpty)
            let feed = try await store.sharedDatabaseChanges(of: F.bob, container: "iCloud.test", environment: .development, after: before, limit: 10)
            #expect(feed.zones.map(\.zone.name) == ["Z"] && feed.zones.first?.removed == true)
        }
    }

    @Test("a participant leaves; deleting a shared root stops sharing for everyone", arguments: StoreKind.allCases)
    func leaveAndStopSharing(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let created = try await store.apply(F.batch([F.save("root"), F.share("s1", root: "root", participants: [F.bobInvited()])]))
            let guid = try #require(created.saved[1]?.shortGUID)
            _ = try await store.accept(shortGUID: guid, by: F.acceptor(F.bob))
            let leave = RecordWrite(name: "s1", action: .leave, precondition: .none, recordType: nil)
            #expect(try await store.apply(F.batch([leave], by: F.bob)).outcomes == [.deleted(name: "s1")])
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).isEmpty)
            #expect(try await store.share(shortGUID: guid)?.participant(user: F.bob)?.status == .removed)

            _ = try await store.apply(F.batch([F.share("s1", root: nil, participants: [F.bobInvited(.invited)], action: .save(replace: false))]))
            _ = try await store.accept(shortGUID: guid, by: F.acceptor(F.bob))
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).count == 1)
            _ = try await store.apply(F.batch([F.delete("root")]))
            #expect(try await store.records(named: ["s1"], in: F.zone) == [nil])
            #expect(try await store.shares(in: F.zone).isEmpty)
            #expect(try await store.share(shortGUID: guid) == nil)
            #expect(try await store.sharedZones(of: F.bob, container: "iCloud.test", environment: .development).isEmpty)
        }
    }

    @Test("a record moved under a shared root enters the share with its subtree", arguments: StoreKind.allCases)
    func coverageFollowsMoves(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("root"), F.save("folder"), F.save("file", parent: "folder"), F.share("s1", root: "root")]))
            let token = try await store.changes(in: F.zone, generation: nil, after: 0, recordTypes: nil, limit: 100)
            _ = try await store.apply(F.batch([F.save("folder", parent: "root")]))
            let view = try await store.hierarchy(rootedAt: ["root"], in: F.zone)
            #expect(view == ["root", "folder", "file"])
            let page = try await store.changes(
                in: F.zone, generation: token.zone.id, after: token.throughSeq, recordTypes: nil, names: view, shares: ["s1"], limit: 100
            )
            #expect(Set(page.records.map(\.name)) == ["folder", "file"], "file entered with its parent, unchanged itself")
        }
    }
}
