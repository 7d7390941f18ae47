import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The account events an operator makes happen: a zone deleted, purged or reset (each reported
/// with its reason), a web auth token revoked, a storage quota reached and freed again.
@Suite struct AccountEventTests {
    @Test func eachZoneResetIsReportedWithItsReasonInChangesDatabase() async throws {
        try await TestServer.run { server in
            for name in ["Gone", "Purged", "Reset", "Kept"] {
                try await server.createZone(name)
                _ = try await server.modify([Records.create("r-\(name)")], zone: name)
            }
            let token = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self).syncToken
            let alice = server.userRecordName("alice")
            for (name, reason) in [("Gone", ZoneDeletionReason.deleted), ("Purged", .purged), ("Reset", .encryptedDataReset)] {
                let request = ZoneResetRequest(container: DevSeeder.container, environment: .development, userRecordName: alice, zoneName: name, reason: reason)
                let response = try await server.admin("zones/reset", request)
                #expect(response.status == .ok, "\(response.text)")
                #expect(try response.decode(ZoneResetResponse.self).deletionReason == reason)
            }
            let changes = try await server.call(
                "changes/database", DatabaseChangesRequest(syncToken: token), expecting: DatabaseChangesResponse.self
            )
            let reasons = Dictionary(uniqueKeysWithValues: changes.zones.map { ($0.zoneID.zoneName, $0) })
            #expect(reasons["Gone"]?.deleted == true && reasons["Gone"]?.deletionReason == .deleted)
            #expect(reasons["Purged"]?.deleted == true && reasons["Purged"]?.deletionReason == .purged)
            #expect(reasons["Reset"]?.deleted == true && reasons["Reset"]?.deletionReason == .encryptedDataReset)
            #expect(reasons["Kept"] == nil)
            // The records went with the zone; a zone deleted by the app says so too.
            #expect(try await server.lookup(["r-Purged"], zone: "Purged").first?.error?.serverErrorCode == .zoneNotFound)
            _ = try await server.call(
                "zones/modify", ModifyZonesRequest(operations: [.init(.delete, ZoneID(zoneName: "Kept"))]), expecting: ZonesResponse.self
            )
            let later = try await server.call(
                "changes/database", DatabaseChangesRequest(syncToken: changes.syncToken), expecting: DatabaseChangesResponse.self
            )
            #expect(later.zones.map(\.deletionReason) == [.deleted])
            // The default zone is not a zone to reset; a missing one is not found.
            let defaultZone = ZoneResetRequest(
                container: DevSeeder.container, environment: .development, userRecordName: alice, zoneName: "_defaultZone", reason: .purged
            )
            #expect(try await server.admin("zones/reset", defaultZone).status == .badRequest)
            var missing = defaultZone
            missing.zoneName = "Nowhere"
            #expect(try await server.admin("zones/reset", missing).status == .notFound)
        }
    }

    @Test func compactingADatabaseExpiresItsDatabaseAndZoneTokens() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("r1")], zone: "Trips")
            let old = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self).syncToken
            guard case .success(let page) = try await server.zoneChanges("Trips") else { throw TestFailure("no zone page") }
            let request = CompactDatabaseRequest(container: DevSeeder.container, environment: .development, ownerRecordName: server.userRecordName("alice"))
            let response = try await server.admin("databases/compact", request)
            #expect(response.status == .ok, "\(response.text)")
            let fresh = try response.decode(CompactDatabaseResponse.self).syncToken

            let expired = try await server.post("changes/database", DatabaseChangesRequest(syncToken: old))
            #expect(expired.status == .badRequest && expired.errorBody?.nativeErrorCode == 21, "\(expired.text)")
            guard case .failure(let zoneError) = try await server.zoneChanges("Trips", token: page.syncToken) else {
                throw TestFailure("the zone token still works")
            }
            #expect(zoneError.nativeErrorCode == 21)
            // From the start, and from the token the compaction answered, fetches work.
            let all = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self)
            #expect(all.zones.map(\.zoneID.zoneName) == ["Trips"])
            #expect(try await server.post("changes/database", DatabaseChangesRequest(syncToken: fresh)).status == .ok)
            // Another account's tokens are untouched.
            let bobToken = try await server.call("changes/database", DatabaseChangesRequest(), as: "bob", expecting: DatabaseChangesResponse.self).syncToken
            _ = try await server.admin("databases/compact", request)
            #expect(try await server.post("changes/database", DatabaseChangesRequest(syncToken: bobToken), as: "bob").status == .ok)
        }
    }

    @Test func aRevokedWebAuthTokenAnswersAuthenticationRequired() async throws {
        try await TestServer.run { server in
            guard let carol = server.credentials.account("carol")?.webAuthToken else { throw TestFailure("no carol") }
            #expect(try await server.post("zones/list", EmptyBody(), as: "carol").status == .ok)
            let response = try await server.admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: carol))
            #expect(response.status == .ok, "\(response.text)")
            let refused = try await server.post("zones/list", EmptyBody(), as: "carol")
            #expect(refused.status.code == 421)
            #expect(refused.errorBody?.serverErrorCode == .authenticationRequired && refused.errorBody?.redirectURL != nil)
            // Others are untouched; a token never issued is not found.
            #expect(try await server.post("zones/list", EmptyBody(), as: "alice").status == .ok)
            #expect(try await server.admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: "nope")).status == .notFound)
        }
    }

    @Test func writesBeyondTheQuotaFailPerItemUntilSpaceIsFreed() async throws {
        try await TestServer.run { server in
            let bob = server.userRecordName("bob")
            let set = try await server.admin(
                "quotas", SetQuotaRequest(container: DevSeeder.container, environment: .development, userRecordName: bob, bytes: 2_000)
            )
            #expect(set.status == .ok, "\(set.text)")
            #expect(try set.decode(QuotaResponse.self).usedBytes == 0)
            var codes: [ServerErrorCode?] = []
            for index in 0..<8 {
                let note = RecordOperation(.create, Record(recordName: "q\(index)", recordType: "Note", fields: ["text": .string(String(repeating: "x", count: 400))]))
                codes.append(try await server.modify([note], zone: "_defaultZone", as: "bob").first?.error?.serverErrorCode)
            }
            #expect(codes.first == .some(nil))
            #expect(codes.last == .quotaExceeded)
            let saved = codes.filter { $0 == nil }.count
            #expect((3...4).contains(saved), "\(codes)")
            // Deleting frees space: the next write fits.
            _ = try await server.modify([RecordOperation(.forceDelete, Record(recordName: "q0"))], zone: "_defaultZone", as: "bob")
            let again = RecordOperation(.create, Record(recordName: "again", recordType: "Note", fields: ["text": .string(String(repeating: "y", count: 300))]))
            #expect(try await server.modify([again], zone: "_defaultZone", as: "bob").first?.record != nil)
            // Lifted: no limit.
            let lifted = try await server.admin(
                "quotas", SetQuotaRequest(container: DevSeeder.container, environment: .development, userRecordName: bob, bytes: nil)
            )
            #expect(try lifted.decode(QuotaResponse.self).usedBytes > 1_000)
            let big = RecordOperation(.create, Record(recordName: "big", recordType: "Note", fields: ["text": .string(String(repeating: "z", count: 5_000))]))
            #expect(try await server.modify([big], zone: "_defaultZone", as: "bob").first?.record != nil)
        }
    }
}
