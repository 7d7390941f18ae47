import StratusModel
import StratusStore
import Testing

/// CloudKit's record write rules, each stated once and run on every store: creates, merges and
/// replaces, tombstones, the creator rule and the security roles' rights, record types, a locked schema, parent and reference
/// integrity, and `DELETE_SELF` cascades.
@Suite("Write rules")
struct WriteRuleTests {
    typealias F = RuleFixture

    @Test("a create of a taken name fails with the server's record", arguments: StoreKind.allCases)
    func createOfATakenName(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let first = try await store.apply(F.batch([F.create("a", ["n": .int64(1)])]))
            let stored = try #require(first.saved[0])
            let again = try await store.apply(F.batch([F.create("a", ["n": .int64(2)])]))
            #expect(again.failures == [.exists(stored)])
        }
    }

    @Test("a save merges the fields it names; a replace drops the others", arguments: StoreKind.allCases)
    func mergeAndReplace(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("a", ["x": .int64(1), "y": .int64(1)])]))
            let merged = try await store.apply(F.batch([F.save("a", ["y": .int64(2)])]))
            #expect(merged.saved[0]?.fields == ["x": .int64(1), "y": .int64(2)])
            let replaced = try await store.apply(F.batch([F.save("a", ["y": .int64(3)], replace: true)]))
            #expect(replaced.saved[0]?.fields == ["y": .int64(3)])
            #expect(try await store.records(named: ["a"], in: F.zone).first??.fields == ["y": .int64(3)])
        }
    }

    @Test("a delete leaves a tombstone in the feed; deleting nothing succeeds and changes nothing", arguments: StoreKind.allCases)
    func deletes(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let saved = try await store.apply(F.batch([F.save("a")]))
            let deleted = try await store.apply(F.batch([F.delete("a")]))
            #expect(deleted.outcomes == [.deleted(name: "a")] && deleted.changes.map(\.kind) == [.deleted])
            let page = try await store.changes(in: F.zone, generation: nil, after: saved.zone.lastSeq, recordTypes: nil, limit: 10)
            #expect(page.records.map(\.name) == ["a"] && page.records.first?.deleted == true)
            let nothing = try await store.apply(F.batch([F.delete("ghost")]))
            #expect(nothing.outcomes == [.deleted(name: "ghost")] && !nothing.committed)
        }
    }

    @Test("only a record's creator may change it where the creator rule holds", arguments: StoreKind.allCases)
    func creatorRule(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("a")]))
            var bobs = F.batch([F.save("a", ["n": .int64(1)])], by: F.bob)
            bobs.rights = .creatorWrites
            #expect(try await store.apply(bobs).failures == [.permissionDenied])
            var bobDeletes = F.batch([F.delete("a")], by: F.bob)
            bobDeletes.rights = .creatorWrites
            #expect(try await store.apply(bobDeletes).failures == [.permissionDenied])
            var alices = F.batch([F.save("a", ["n": .int64(1)])])
            alices.rights = .creatorWrites
            #expect(try await store.apply(alices).saved[0]?.fields["n"] == .int64(1))
        }
    }

    @Test("the security roles' rights: who creates a type, who changes others' records", arguments: StoreKind.allCases)
    func securityRoleRights(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let rights = WriteRights(
                recordTypes: [
                    "Board": .init(create: true, changeOwn: true, changeAny: true),
                    "Notice": .init(create: false, changeOwn: false, changeAny: false),
                ],
                otherwise: .init(create: true, changeOwn: true, changeAny: false)
            )
            var create = F.batch([F.save("board", type: "Board"), F.save("notice", type: "Notice"), F.save("t")])
            create.rights = rights
            let created = try await store.apply(create)
            #expect(created.failures == [nil, .createDenied, nil])
            // A write that needs a change tag, or a delete, of a missing record is answered by its own rule.
            var missing = F.batch([F.save("ghost", tag: "1-x", type: "Notice"), F.delete("gone")])
            missing.rights = rights
            let answered = try await store.apply(missing)
            #expect(answered.failures == [.notFound, nil])
            // Bob changes alice's Board (WRITE to a role he holds), not her T (WRITE to its creator only).
            var bobs = F.batch([F.save("board", ["n": .int64(2)], type: "Board"), F.save("t", ["n": .int64(2)])], by: F.bob)
            bobs.rights = rights
            let changed = try await store.apply(bobs)
            #expect(changed.failures == [nil, .permissionDenied])
            #expect(changed.saved[0]?.fields["n"] == .int64(2))
        }
    }

    @Test("a save cannot change a record's type; a locked schema refuses fields it lacks", arguments: StoreKind.allCases)
    func typesAndLockedSchema(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([F.save("a")]))
            guard case .invalid = try await store.apply(F.batch([F.save("a", type: "Other")])).failures[0] else {
                throw TestFailure("a type change was accepted")
            }
            var locked = F.batch([F.save("b", ["unknown": .int64(1)])])
            locked.schema = [SchemaField(recordType: "T", fieldName: "unknown", type: .int64)]
            locked.schemaMayGrow = false
            guard case .invalid(let reason) = try await store.apply(locked).failures[0] else { throw TestFailure("a locked schema grew") }
            #expect(reason.contains("not in the production schema"))
            #expect(try await store.schema(container: "iCloud.test", environment: .development)["T"]?["unknown"] == nil)
        }
    }

    @Test("a parent must exist once the batch applies, in any order, and may not loop", arguments: StoreKind.allCases)
    func parents(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let missing = try await store.apply(F.batch([F.save("child", parent: "nobody")]))
            #expect(missing.failures == [.missingParent("nobody")])
            let childFirst = try await store.apply(F.batch([F.save("child", parent: "parent"), F.save("parent")]))
            #expect(childFirst.failures == [nil, nil])
            let loop = try await store.apply(F.batch([F.save("parent", parent: "child")]))
            guard case .invalid(let reason) = loop.failures[0] else { throw TestFailure("a loop was accepted: \(loop.outcomes)") }
            #expect(reason.contains("its own ancestor"))
            let deletedParent = try await store.apply(F.batch([F.delete("parent"), F.save("other", parent: "parent")]))
            #expect(deletedParent.failures == [nil, .missingParent("parent")])
        }
    }

    @Test("required reference targets must exist once the batch applies", arguments: StoreKind.allCases)
    func requiredTargets(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            var pointing = F.save("source", ["to": F.reference("target", .validate)])
            pointing.requiredTargets = ["target"]
            #expect(try await store.apply(F.batch([pointing])).failures == [.missingReference("target")])
            #expect(try await store.apply(F.batch([pointing, F.save("target")])).failures == [nil, nil])
            #expect(try await store.apply(F.batch([pointing, F.delete("target")])).failures == [.missingReference("target"), nil])
        }
    }

    @Test("deleting a record deletes what points at it with DELETE_SELF, transitively, batch writes included", arguments: StoreKind.allCases)
    func deleteSelfCascades(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            _ = try await store.apply(F.batch([
                F.save("a"), F.save("b", ["up": F.reference("a", .deleteSelf)]), F.save("c", ["up": F.reference("b", .deleteSelf)]),
                F.save("kept", ["up": F.reference("a", .none)]), F.save("moved", ["up": F.reference("a", .deleteSelf)]),
            ]))
            _ = try await store.apply(F.batch([F.save("moved", ["up": F.reference("kept", .deleteSelf)])]))
            let result = try await store.apply(F.batch([F.save("fresh", ["up": F.reference("a", .deleteSelf)]), F.delete("a")]))
            #expect(result.failures == [nil, nil])
            let left = try await store.records(named: ["a", "b", "c", "fresh", "kept", "moved"], in: F.zone).map { $0?.name }
            #expect(left == [nil, nil, nil, nil, "kept", "moved"])
        }
    }

    @Test("a long DELETE_SELF chain and a deep subtree are followed whole", arguments: StoreKind.allCases)
    func longChains(kind: StoreKind) async throws {
        try await kind.withStore { store in
            _ = try await store.createZone(F.zone, atomic: true)
            let chain = (1..<40).map { F.save("c\($0)", ["up": F.reference("c\($0 - 1)", .deleteSelf)]) }
            _ = try await store.apply(F.batch([F.save("c0")] + chain))
            _ = try await store.apply(F.batch([F.delete("c0")]))
            #expect(try await store.records(named: (0..<40).map { "c\($0)" }, in: F.zone).allSatisfy { $0 == nil })

            _ = try await store.apply(F.batch([F.save("root"), F.share("s1", root: "root"), F.save("d0")] + (1..<30).map { F.save("d\($0)", parent: "d\($0 - 1)") }))
            let token = try await store.changes(in: F.zone, generation: nil, after: 0, recordTypes: nil, limit: 500)
            _ = try await store.apply(F.batch([F.save("d0", parent: "root")]))
            let view = try await store.hierarchy(rootedAt: ["root"], in: F.zone)
            let page = try await store.changes(
                in: F.zone, generation: token.zone.id, after: token.throughSeq, recordTypes: nil, names: view, shares: ["s1"], limit: 500
            )
            #expect(Set(page.records.map(\.name)) == Set((0..<30).map { "d\($0)" }), "the whole subtree entered the share")
        }
    }
}
