import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// Public link shares, administrators, participant limits, and share saves that must fail.
@Suite("Sharing: public links, roles and bad share saves")
struct SharePermissionTests {
    @Test("a public READ_ONLY link: carol joins as PUBLIC_USER, reads, cannot write")
    func publicReadOnlyLink() async throws {
        try await TestServer.run { server in
            let share = try await RecordShareTests.shareTrip(server, with: [], publicPermission: .readOnly)
            let guid = try #require(share.shortGUID)
            let metadata = try #require(try await server.resolve(guid, as: "carol").value)
            #expect(metadata.participantRole == .publicUser)
            #expect(metadata.participantPermission == .readOnly)
            #expect(metadata.participantStatus == .pending)
            let accepted = try #require(try await server.accept(guid, as: "carol").value)
            #expect(accepted.participantStatus == .accepted)
            #expect(accepted.participantRole == .publicUser)

            let visible = try await server.sharedZoneChanges("Trips", of: "alice", as: "carol")
            #expect(TestServer.liveNames(visible) == ["child-1", "child-2", "root", "share-1"])
            let root = try #require(visible.value?.records.first { $0.recordName == "root" })
            var edit = Record(recordName: "root", recordType: "Destination", recordChangeTag: root.recordChangeTag)
            edit.fields = ["caption": .string("carol was here")]
            let denied = try await server.sharedModify([RecordOperation(.update, edit)], zone: "Trips", of: "alice", as: "carol")
            #expect(denied.first?.error?.serverErrorCode == .accessDenied)
            #expect(try await server.lookup(["root"], zone: "Trips").first?.record?.recordChangeTag == root.recordChangeTag)

            let owner = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            let carol = owner.participants?.first { $0.userIdentity?.userRecordName == server.userRecordName("carol") }
            #expect(carol?.type == .publicUser)
            #expect(carol?.acceptanceStatus == .accepted)
            #expect(carol?.permission == .readOnly)
        }
    }

    @Test("an ADMINISTRATOR adds a participant; a USER cannot")
    func administratorsManageParticipants() async throws {
        for (role, allowed) in [(ParticipantRole.administrator, true), (.user, false)] {
            try await TestServer.run { server in
                let share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite, role: role)])
                let guid = try #require(share.shortGUID)
                _ = try await server.accept(guid, as: "bob")
                let seen = try #require(try await server.sharedLookup(["share-1"], zone: "Trips", of: "alice", as: "bob").first?.record)
                #expect(seen.currentUserParticipant?.type == role)
                let participants = (seen.participants ?? []) + [server.invite("carol", .readOnly)]
                let result = try await server.sharedModify(
                    [TestServer.updateShare(seen, participants: participants)], zone: "Trips", of: "alice", as: "bob"
                )
                if allowed {
                    #expect(result.first?.record?.participants?.count == 3, "\(role): \(result)")
                    #expect(try await server.resolve(guid, as: "carol").value?.participantStatus == .invited)
                } else {
                    #expect(result.first?.error?.serverErrorCode == .accessDenied, "\(role): \(result)")
                    #expect(try await server.resolve(guid, as: "carol").error?.serverErrorCode == .accessDenied)
                }
            }
        }
    }

    @Test("share saves that must fail get a per-item error and change nothing")
    func badShareSaves() async throws {
        var limits = ServiceLimits.strict
        limits.participantsPerShare = 2
        try await TestServer.run(limits: limits) { server in
            _ = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite)])
            try await server.createZone("Other")
            _ = try await server.modify([Records.create("solo")], zone: "Other")
            let current = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            var forced = current
            forced.fields = ["cloudkit.title": .string("forced")]
            let cases: [(String, String, RecordOperation, ServerErrorCode)] = [
                ("in the default zone", "_defaultZone", TestServer.createShare("s", root: "solo", participants: []), .badRequest),
                ("without forRecord", "Other", TestServer.createShare("s", root: nil, participants: []), .badRequest),
                ("for a missing root", "Other", TestServer.createShare("s", root: "missing", participants: []), .badRequest),
                ("root already shared", "Trips", TestServer.createShare("s", root: "root", participants: []), .badRequest),
                ("forceUpdate of a share", "Trips", RecordOperation(.forceUpdate, forced), .badRequest),
                ("update with a stale tag", "Trips", TestServer.updateShare(
                    Record(recordName: "share-1", recordChangeTag: "1"), participants: nil, publicPermission: .readOnly
                ), .conflict),
                ("unknown user", "Other", TestServer.createShare("s", root: "solo", participants: [
                    ShareParticipant(userIdentity: UserIdentity(userRecordName: "_nobody"), permission: .readOnly),
                ]), .badRequest),
                ("participant without identity", "Other", TestServer.createShare("s", root: "solo", participants: [
                    ShareParticipant(permission: .readOnly),
                ]), .badRequest),
                ("over the participant limit", "Other", TestServer.createShare("s", root: "solo", participants: [
                    server.invite("bob", .readOnly), server.invite("carol", .readOnly),
                ]), .badRequest),
            ]
            for (label, zone, operation, expected) in cases {
                // The default zone has no change feed: there, nothing changed means no share record.
                let isDefault = zone == ZoneID.defaultZoneName
                let before = isDefault ? nil : try await server.zoneChanges(zone).value?.syncToken
                let result = try await server.modify([operation], zone: zone)
                #expect(result.first?.error?.serverErrorCode == expected, "\(label): \(result)")
                if isDefault {
                    #expect(try await server.lookup(["s"], zone: zone).first?.record == nil, "\(label) saved a share")
                } else {
                    let after = try await server.zoneChanges(zone, token: before).value
                    #expect(after?.records.isEmpty == true, "\(label) changed the zone")
                }
            }
            let unchanged = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record)
            #expect(unchanged.recordChangeTag == current.recordChangeTag)
            #expect(unchanged.publicPermission == SharePermission.none)
            // Without a signed-in user, resolve and accept need authentication.
            let anonymous = try await server.post("records/resolve", server.shortGUIDs("x"), database: "public", as: nil)
            #expect(anonymous.status.code == 421)
        }
    }
}
