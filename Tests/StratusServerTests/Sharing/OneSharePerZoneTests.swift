import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// A zone and its records take part in one share only: a zone-wide share and record-hierarchy
/// shares exclude each other, in either order and within one request, and a record roots at most
/// one share. The refused save is a per-item `BAD_REQUEST` with `nativeErrorCode` 30 (CloudKit's
/// `alreadyShared`) and changes nothing; deleting the share makes the zone shareable again.
@Suite("Sharing: one share per zone")
struct OneSharePerZoneTests {
    /// Expects `result` to be the refusal of a second share.
    static func expectAlreadyShared(_ result: RecordResult?, _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result?.error?.serverErrorCode == .badRequest, "\(label): \(String(describing: result))", sourceLocation: sourceLocation)
        #expect(result?.error?.nativeErrorCode == CKErrorCodeNumber.alreadyShared, "\(label)", sourceLocation: sourceLocation)
    }

    /// The creation of the share `name`: the zone-wide share, or a share of record "a".
    static func share(_ name: String) -> RecordOperation {
        TestServer.createShare(name, root: name == ShareNames.zoneWideShare ? nil : "a", participants: [])
    }

    /// The zone's sync token now.
    static func token(_ server: TestServer, _ zone: String) async throws -> String {
        try #require(try await server.zoneChanges(zone).value?.syncToken)
    }

    /// Expects nothing in `zone` to have changed since `token`.
    static func expectUnchanged(
        _ server: TestServer, _ zone: String, since token: String, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let after = try await server.zoneChanges(zone, token: token).value
        #expect(after?.records.isEmpty == true, "the zone changed: \(String(describing: after?.records))", sourceLocation: sourceLocation)
    }

    @Test("a record share in a zone with a zone-wide share is refused; once the zone share is deleted it is allowed")
    func recordShareAfterZoneShare() async throws {
        try await TestServer.run { server in
            try await server.createZone("Family")
            let created = try await server.modify([
                Records.create("a"),
                TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readWrite)]),
            ], zone: "Family")
            #expect(created.allSatisfy { $0.record != nil }, "\(created)")

            let before = try await Self.token(server, "Family")
            let refused = try await server.modify([TestServer.createShare("share-1", root: "a", participants: [])], zone: "Family")
            Self.expectAlreadyShared(refused.first, "record share after the zone share")
            #expect(refused.first?.error?.reason.contains("zone-wide share") == true)
            try await Self.expectUnchanged(server, "Family", since: before)
            #expect(try await server.lookup(["share-1"], zone: "Family").first?.error?.serverErrorCode == .notFound)
            #expect(try await server.lookup(["a"], zone: "Family").first?.record?.share == nil)

            // Deleting the zone-wide share makes the zone shareable again.
            let zoneShare = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Family").first?.record)
            let deleted = try await server.modify([RecordOperation(.delete, zoneShare)], zone: "Family")
            #expect(deleted.first?.error == nil, "\(deleted)")
            let allowed = try await server.modify([TestServer.createShare("share-1", root: "a", participants: [])], zone: "Family")
            #expect(allowed.first?.record?.recordName == "share-1", "\(allowed)")
            #expect(try await server.lookup(["a"], zone: "Family").first?.record?.share?.recordName == "share-1")
        }
    }

    @Test("a zone-wide share in a zone with a record share is refused; once the record share is deleted it is allowed")
    func zoneShareAfterRecordShare() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            let created = try await server.modify([
                Records.create("root"), Records.create("other"),
                TestServer.createShare("share-1", root: "root", participants: [server.invite("bob", .readOnly)]),
            ], zone: "Trips")
            #expect(created.allSatisfy { $0.record != nil }, "\(created)")
            // A second record share in the same zone, of another root, is fine.
            let second = try await server.modify([TestServer.createShare("share-2", root: "other", participants: [])], zone: "Trips")
            #expect(second.first?.record != nil, "\(second)")

            let before = try await Self.token(server, "Trips")
            let refused = try await server.modify(
                [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [])], zone: "Trips"
            )
            Self.expectAlreadyShared(refused.first, "zone share after record shares")
            #expect(refused.first?.error?.reason.contains("record share") == true)
            try await Self.expectUnchanged(server, "Trips", since: before)
            #expect(try await server.lookup([ShareNames.zoneWideShare], zone: "Trips").first?.error?.serverErrorCode == .notFound)

            // Still refused while one record share is left; allowed once none is.
            for name in ["share-1", "share-2"] {
                let again = try await server.modify(
                    [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [])], zone: "Trips"
                )
                Self.expectAlreadyShared(again.first, "zone share while \(name) is live")
                let share = try #require(try await server.lookup([name], zone: "Trips").first?.record)
                let deleted = try await server.modify([RecordOperation(.delete, share)], zone: "Trips")
                #expect(deleted.first?.error == nil, "\(deleted)")
            }
            let allowed = try await server.modify(
                [TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [])], zone: "Trips"
            )
            #expect(allowed.first?.record?.recordName == ShareNames.zoneWideShare, "\(allowed)")
        }
    }

    @Test("both kinds in one request: atomic, the whole zone batch fails; not atomic, the later one fails")
    func bothInOneRequest() async throws {
        try await TestServer.run { server in
            try await server.createZone("Atomic")
            let before = try await Self.token(server, "Atomic")
            let atomic = try await server.modify([
                Records.create("a"),
                TestServer.createShare("share-1", root: "a", participants: []),
                TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: []),
            ], zone: "Atomic")
            #expect(atomic.prefix(2).allSatisfy { $0.error?.serverErrorCode == .atomicError }, "\(atomic)")
            Self.expectAlreadyShared(atomic.last, "zone share after a record share in one atomic request")
            try await Self.expectUnchanged(server, "Atomic", since: before)
            #expect(try await server.lookup(["a"], zone: "Atomic").first?.error?.serverErrorCode == .notFound)

            let orders = [("RecordFirst", "share-1", ShareNames.zoneWideShare), ("ZoneFirst", ShareNames.zoneWideShare, "share-1")]
            for (zone, first, second) in orders {
                try await server.createZone(zone)
                let results = try await server.modify(
                    [Records.create("a"), Self.share(first), Self.share(second)], zone: zone, atomic: false
                )
                #expect(results.dropLast().allSatisfy { $0.record != nil }, "\(zone): \(results)")
                Self.expectAlreadyShared(results.last, "\(zone): the later share")
                let found = try await server.lookup([first, second], zone: zone)
                #expect(found.first?.record != nil, "\(zone): \(found)")
                #expect(found.last?.error?.serverErrorCode == .notFound, "\(zone): \(found)")
            }
        }
    }

    @Test("deleting the zone-wide share and sharing a record in one request, in that order, is allowed")
    func deleteThenShareInOneRequest() async throws {
        try await TestServer.run { server in
            try await server.createZone("Family")
            let created = try await server.modify([
                Records.create("a"), TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: []),
            ], zone: "Family")
            let zoneShare = try #require(created.last?.record)
            let results = try await server.modify([
                RecordOperation(.delete, zoneShare), TestServer.createShare("share-1", root: "a", participants: []),
            ], zone: "Family")
            #expect(results.allSatisfy { $0.error == nil }, "\(results)")
            #expect(try await server.lookup(["a"], zone: "Family").first?.record?.share?.recordName == "share-1")
            #expect(try await server.lookup([ShareNames.zoneWideShare], zone: "Family").first?.error?.serverErrorCode == .notFound)
        }
    }

    @Test("a record already shared is not shared again")
    func recordSharedTwice() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify(
                [Records.create("root"), TestServer.createShare("share-1", root: "root", participants: [])], zone: "Trips"
            )
            let before = try await Self.token(server, "Trips")
            let refused = try await server.modify([TestServer.createShare("share-2", root: "root", participants: [])], zone: "Trips")
            Self.expectAlreadyShared(refused.first, "second share of one root")
            try await Self.expectUnchanged(server, "Trips", since: before)
            #expect(try await server.lookup(["root"], zone: "Trips").first?.record?.share?.recordName == "share-1")
        }
    }
}
