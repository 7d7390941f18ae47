import Foundation
import StratusCore
import StratusCloudKit
import StratusKit
import StratusModel
import Testing

/// The failures CKSyncEngine apps must survive, forced on a real server by fault rules and account
/// events, and the device reacting as CKSyncEngine (and the seeds' rules) say it must.
@Suite("Journal: failure paths")
struct JournalFaultTests {
    @Test("throttled twice: the engine waits retryAfter each time, then the save lands; a non-retryable error is not retried")
    func retriesOnlyRetryableErrorsAfterRetryAfter() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.sync()
            try await journal.admin("faults", CreateFaultRequest(
                match: FaultMatch(endpoint: "records/modify"), action: .error(.throttled, retryAfter: 1), count: 2
            ))
            let key = await iphone.privateKey("lisbon")
            try await iphone.save(key, type: "Destination", fields: Journal.destination("Lisbon"))
            let clock = ContinuousClock()
            let started = clock.now
            try await iphone.sync()
            #expect(clock.now - started >= .seconds(2))
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).count == 1)

            // BAD_REQUEST is not retryable: one attempt, the sync reports it, the edit stays pending.
            try await journal.admin("faults", CreateFaultRequest(
                match: FaultMatch(endpoint: "records/modify"), action: .error(.badRequest, retryAfter: nil), count: 1
            ))
            try await iphone.save(key, type: "Destination", fields: ["caption": .string("Lisboa")])
            await #expect(throws: CKError.self) { try await iphone.sync() }
            #expect(try await iphone.store.pendingExports(in: .private).count == 1)
            try await iphone.sync()
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("a record throttled on its own (item-level THROTTLED) is not resent before its retry time, then lands")
    func itemLevelThrottlingIsNotResentAtOnce() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.sync()
            try await journal.admin("faults", CreateFaultRequest(
                match: FaultMatch(endpoint: "records/modify", recordType: "Destination"), action: .itemError(.throttled), count: 1
            ))
            let key = await iphone.privateKey("lisbon")
            try await iphone.save(key, type: "Destination", fields: Journal.destination("Lisbon"))
            try? await iphone.sync()
            // The sync's later passes did not send it again at once: it waits, pending.
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).isEmpty)
            #expect(try await iphone.store.pendingExports(in: .private).count == 1)
            #expect(await iphone.events.filter { $0.failures["lisbon"] == .requestRateLimited }.count == 1, "sent once, refused once")

            try await Task.sleep(for: .milliseconds(1_100))   // past its retry time (no retryAfter: a second)
            try await iphone.sync()
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).count == 1)
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("an answer lost after commit: the resend finds its own write, one record results")
    func droppedAnswerEndsWithOneRecord() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.sync()
            try await journal.admin("faults", CreateFaultRequest(
                match: FaultMatch(endpoint: "records/modify"), action: .dropResponseAfterCommit, count: 1
            ))
            let key = await iphone.privateKey("porto")
            try await iphone.save(key, type: "Destination", fields: Journal.destination("Porto", details: "Port wine"))
            try await iphone.sync()
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(server.count == 1)
            #expect(server["\(journal.userRecordName("alice"))/\(key.zoneName)/porto"]?["details"] == .string("Port wine"))
            #expect(try await iphone.store.pendingExports(in: .private).isEmpty)
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("every change token of the database expired: the engine fetches from the start and converges")
    func expiredDatabaseTokensAreRefetched() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            try await iphone.save(await iphone.privateKey("rome"), type: "Destination", fields: Journal.destination("Rome"))
            try await iphone.sync()
            try await ipad.sync()
            try await iphone.delete(await iphone.privateKey("rome"))
            try await iphone.save(await iphone.privateKey("milan"), type: "Destination", fields: Journal.destination("Milan"))
            try await iphone.sync()
            try await journal.admin("databases/compact", CompactDatabaseRequest(
                container: Journal.container, environment: .development, ownerRecordName: journal.userRecordName("alice")
            ))
            // The iPad's tokens are all from before: it starts over, and the deletion it missed still shows.
            try await ipad.sync()
            #expect(try await ipad.records(in: .private).map(\.key.recordName) == ["milan"])
            #expect(await ipad.events.contains { $0.name == "zoneChangeTokenExpired" })
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("a zone deleted by the app elsewhere: the device deletes its local data for it")
    func deletedZoneDeletesLocalData() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.save(await iphone.privateKey("rome"), type: "Destination", fields: Journal.destination("Rome"))
            try await iphone.sync()
            try await journal.admin("zones/reset", ZoneResetRequest(
                container: Journal.container, environment: .development, userRecordName: journal.userRecordName("alice"),
                zoneName: iphone.zoneName, reason: .deleted
            ))
            try await iphone.sync()
            #expect(try await iphone.records(in: .private).isEmpty)
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).isEmpty)
        }
    }

    @Test("a zone reset with the encrypted data: the device uploads its local data again into a new zone")
    func resetZoneIsUploadedAgain() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            for city in ["Oslo", "Bergen"] {
                try await iphone.save(await iphone.privateKey(city.lowercased()), type: "Destination", fields: Journal.destination(city))
            }
            try await iphone.sync()
            try await journal.resetZone(of: "alice", iphone.zoneName, reason: .encryptedDataReset)
            try await iphone.sync()
            try await iphone.sync()
            #expect(try await iphone.records(in: .private).count == 2)
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).count == 2)
            #expect(await iphone.events.contains { $0.name == "zoneReset.encryptedDataReset" })
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("a zone the user purged in Settings: the server's copies are deleted here and never sent again; what the server never saw goes up")
    func purgedZoneIsDeletedLocallyAndNotResent() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            let oslo = await iphone.privateKey("oslo")
            try await iphone.save(oslo, type: "Destination", fields: Journal.destination("Oslo"))
            try await iphone.sync()
            try await ipad.sync()
            try await journal.resetZone(of: "alice", iphone.zoneName, reason: .purged)
            // The iPad does not know yet: its edit of Oslo is of purged data; Tromsø is new.
            try await ipad.save(oslo, type: "Destination", fields: ["caption": .string("Oslo, edited")])
            let tromso = await ipad.privateKey("tromso")
            try await ipad.save(tromso, type: "Destination", fields: Journal.destination("Tromsø"))
            try await ipad.sync()
            try await iphone.sync()
            try await ipad.sync()
            for device in [iphone, ipad] {
                #expect(try await device.records(in: .private).map(\.key.recordName) == ["tromso"])
                #expect(try await device.store.pendingExports(in: .private).isEmpty)
            }
            // The iPad's save met the purge. The iPhone fetches after the iPad made the zone
            // again: a database change fetch lists a zone once, as it is now (not its purged
            // life), and the zone's new life replaces what the iPhone held.
            #expect(await ipad.events.contains { $0.name == "zoneReset.purged" })
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).keys.map { $0.hasSuffix("/tromso") } == [true])
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("after a reset, a stale device's re-upload does not overwrite the newer copy another device uploaded again")
    func staleReuploadDoesNotOverwriteANewerCopy() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            let ipad = try await journal.device("alice-ipad", signedInAs: "alice")
            let one = await iphone.privateKey("one")
            try await iphone.save(one, type: "Destination", fields: Journal.destination("one"))
            try await iphone.sync()
            try await ipad.sync()
            // The iPad edits; the iPhone never fetches the edit before the zone is reset.
            try await ipad.save(one, type: "Destination", fields: ["caption": .string("one-edited")])
            try await ipad.sync()
            try await journal.resetZone(of: "alice", iphone.zoneName, reason: .encryptedDataReset)
            try await ipad.sync()
            try await ipad.sync()
            try await iphone.sync()
            try await iphone.sync()
            try await ipad.sync()
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(server.values.first?["caption"] == .string("one-edited"), "\(server)")
            for device in [iphone, ipad] {
                #expect(try await device.store.record(one)?.fields["caption"]?.value == .string("one-edited"))
            }
            try await journal.assertConsistent([(iphone, "alice"), (ipad, "alice")])
        }
    }

    @Test("quota exceeded: sending stops, the event surfaces, nothing is lost; raised quota, it all lands")
    func quotaExceededStopsSendingAndKeepsChanges() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.sync()
            let quota = { (bytes: Int64?) in
                SetQuotaRequest(container: Journal.container, environment: .development, userRecordName: journal.userRecordName("alice"), bytes: bytes)
            }
            try await journal.admin("quotas", quota(1_000))
            for index in 0..<6 {
                let fields = Journal.destination("City \(index)", details: String(repeating: "d", count: 300))
                try await iphone.save(await iphone.privateKey("city\(index)"), type: "Destination", fields: fields)
            }
            try await iphone.sync()
            #expect(await iphone.storageFull)
            #expect(await iphone.events.contains { $0.name == "quotaExceeded" })
            let pending = try await iphone.store.pendingExports(in: .private).count
            #expect(pending > 0 && pending < 6)
            #expect(try await iphone.records(in: .private).count == 6)

            try await journal.admin("quotas", quota(nil))
            try await iphone.sync()
            #expect(await !iphone.storageFull)
            #expect(try await journal.serverSnapshot(as: "alice", scope: .private).count == 6)
            try await journal.assertConsistent([(iphone, "alice")])
        }
    }

    @Test("a revoked web auth token: the device stops syncing and keeps its unsent edit; the same user signing in again sends it")
    func revokedTokenKeepsUnsentEditsUntilTheSameUserIsBack() async throws {
        try await Journal.run { journal in
            let iphone = try await journal.device("alice-iphone", signedInAs: "alice")
            try await iphone.save(await iphone.privateKey("nice"), type: "Destination", fields: Journal.destination("Nice"))
            try await iphone.sync()
            let token = try #require(journal.account("alice").webAuthToken)
            try await journal.admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: token))
            try await iphone.save(await iphone.privateKey("porto"), type: "Destination", fields: Journal.destination("Porto"))

            let refused = try await #require(throws: CKError.self) { try await iphone.sync() }
            #expect(refused.code == .notAuthenticated)
            #expect(await iphone.events.contains { $0.name == "notAuthenticated" })
            #expect(Set(try await iphone.records(in: .private).map(\.key.recordName)) == ["nice", "porto"], "nothing local is purged")
            #expect(await iphone.userRecordName == journal.userRecordName("alice"))

            // The same user signs in again (a new token): the edit goes out, nothing was lost.
            let fresh = SimulatedDevice.Account(name: "alice", apiToken: journal.credentials.apiToken, webAuthToken: try await journal.mintWebAuthToken(for: "alice"))
            let server = try journal.container(of: fresh)
            #expect(try await MirrorSnapshot.server(server, scope: .private).records.count == 1, "the edit waits while the token is refused")
            try await iphone.signIn(fresh)
            try await iphone.sync()
            #expect(try await MirrorSnapshot.server(server, scope: .private).records.count == 2)
            // Another account on the server is untouched by it.
            #expect(try await journal.serverSnapshot(as: "bob", scope: .private).isEmpty)
        }
    }
}
