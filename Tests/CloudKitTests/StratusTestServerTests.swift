import CloudKit
import Foundation
import StratusProcess
import StratusTesting
import Testing

/// `StratusTestServer`: a development server inside the test process, as a CloudKit app's test
/// uses one — saves and reads through `CKContainer` as several accounts, two servers apart, and
/// what the test makes happen to the server, one call each.
@Suite struct StratusTestServerTests {
    @Test func twoServersInOneProcessKeepTheirOwnDataAndStopCleanly() async throws {
        let first = try await StratusTestServer.start(containers: [app])
        let second = try await StratusTestServer.start()
        let phone = try first.container(app, account: "alice")
        let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "n1"))
        record["text"] = "hello"
        _ = try await phone.privateCloudDatabase.save(record)
        let laptop = try first.container(app, account: "alice")
        #expect(try await laptop.privateCloudDatabase.record(for: record.recordID)["text"] as? String == "hello")
        let bob = try first.container(app, account: "bob")
        await #expect(throws: CKError.self) { _ = try await bob.privateCloudDatabase.record(for: record.recordID) }
        let elsewhere = try second.container(account: "alice")
        await #expect(throws: CKError.self) { _ = try await elsewhere.privateCloudDatabase.record(for: record.recordID) }
        #expect(first.url != second.url)
        #expect(FileManager.default.fileExists(atPath: first.credentialsFile.path))

        try await first.stop()
        try await second.stop()
        #expect(!FileManager.default.fileExists(atPath: first.credentialsFile.path), "stop() removes its files")
        #expect(!FreePort.answers(first.url.port ?? 0), "nothing listens where the first server was")
    }

    @Test func aFaultRuleAQuotaAndExpiredTokensAreOneCallEach() async throws {
        let server = try await StratusTestServer.start(containers: [app])
        do {
            try await Self.makeThingsHappen(on: server)
        } catch {
            try? await server.stop()
            throw error
        }
        try await server.stop()
    }

    private static func makeThingsHappen(on server: StratusTestServer) async throws {
        let database = try server.container(app, account: "alice").privateCloudDatabase
        let zone = CKRecordZone(zoneName: "Notes")
        _ = try await database.save(zone)
        let note = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "a", zoneID: zone.zoneID))
        note["text"] = "first"
        _ = try await database.save(note)

        // A fault: the next modify is refused as a whole.
        try server.addFault(CreateFaultRequest(match: FaultMatch(endpoint: "records/modify"), action: .error(.badRequest, retryAfter: nil), count: 1))
        let refused = try await #require(throws: CKError.self) { _ = try await database.save(CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "b", zoneID: zone.zoneID))) }
        #expect(refused.code == .invalidArguments)
        #expect(server.clearFaults() == 1)

        // Expired change tokens: a fetch from a token older than the zone's history is told so.
        let token = try await database.recordZoneChanges(inZoneWith: zone.zoneID, since: nil).changeToken
        let later = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "later", zoneID: zone.zoneID))
        later["text"] = "second"
        _ = try await database.save(later)
        try await server.expireChangeTokens(zone: "Notes", account: "alice", container: app)
        let expired = try await #require(throws: CKError.self) { _ = try await database.recordZoneChanges(inZoneWith: zone.zoneID, since: token) }
        #expect(expired.code == .changeTokenExpired)

        // A full account: saves beyond the quota are refused for it.
        try await server.setQuota(bytes: 1, account: "alice", container: app)
        let big = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "big", zoneID: zone.zoneID))
        big["text"] = String(repeating: "x", count: 2_000)
        let full = try await #require(throws: CKError.self) { _ = try await database.save(big) }
        #expect(full.code == .quotaExceeded)
        #expect(try server.userRecordName("alice").hasPrefix("_"))
    }
}

private let app = "iCloud.com.example.InProcess"
