import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// CKShare's public-permission rules (semantics §3.2): going public drops pending invitations,
/// a public share takes no invitations, and going back to NONE removes every participant.
@Suite("fidelity: share permission transitions")
struct PublicPermissionTests {
    @Test("public and private participants are not mixed; back to NONE removes everyone")
    func transitions() async throws {
        try await TestServer.run { server in
            var share = try await RecordShareTests.shareTrip(server, with: [server.invite("bob", .readWrite), server.invite("carol", .readOnly)])
            let guid = try #require(share.shortGUID)
            #expect(try await server.accept(guid, as: "bob").error == nil)
            share = try #require(try await server.lookup(["share-1"], zone: "Trips").first?.record, "accepting changed the share")

            // Going public: carol's pending invitation goes, bob (accepted) stays.
            var results = try await server.modify([TestServer.updateShare(share, participants: nil, publicPermission: .readOnly)], zone: "Trips")
            share = try #require(results.first?.record)
            func status(_ account: String) -> ParticipantAcceptanceStatus? {
                share.participants?.first { $0.userIdentity?.userRecordName == server.userRecordName(account) || $0.userIdentity?.lookupInfo?.emailAddress == server.email(account) }?.acceptanceStatus
            }
            #expect(status("bob") == .accepted && status("carol") == .removed)

            // A public share takes no new invitations.
            let kept = share.participants?.filter { $0.acceptanceStatus != .removed && $0.type != .owner } ?? []
            results = try await server.modify([TestServer.updateShare(share, participants: kept + [server.invite("carol", .readOnly)])], zone: "Trips")
            #expect(results.first?.error?.serverErrorCode == .badRequest && results.first?.error?.reason.contains("not mixed") == true)

            // Back to NONE: every participant but the owner is removed, and bob's shared database says so.
            let before = try await server.sharedDatabaseChanges(as: "bob")
            results = try await server.modify([TestServer.updateShare(share, participants: nil, publicPermission: SharePermission.none)], zone: "Trips")
            share = try #require(results.first?.record)
            #expect(status("bob") == .removed)
            #expect(share.participants?.filter { $0.acceptanceStatus != .removed }.map(\.type) == [.owner])
            let after = try await server.sharedDatabaseChanges(as: "bob", token: before.syncToken)
            #expect(after.zones.first?.deleted == true)
            #expect(try await server.sharedLookup(["root"], zone: "Trips", of: "alice", as: "bob").first?.record == nil)
        }
    }
}
