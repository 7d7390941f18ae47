import CloudKit
import Foundation
import Testing

/// A container whose connection has no web auth token is signed out: `accountStatus()` answers
/// `.noAccount` and the private database refuses every call with `notAuthenticated`.
@Suite struct AccountStatusTests {
    @Test func aConnectionWithoutAWebAuthTokenHasNoAccount() async throws {
        try await DevServer.with { server in
            let signedIn = try StratusConnection(devCredentials: server.credentials, account: "alice")
            var signedOut = signedIn
            signedOut.webAuthToken = nil
            let container = CKContainer(identifier: server.containerIdentifier, connection: signedOut)
            #expect(try await container.accountStatus() == .noAccount)
            #expect(try await CKContainer(identifier: server.containerIdentifier, connection: signedIn).accountStatus() == .available)
        }
    }

    @Test func privateDatabaseCallsWithoutAnAccountThrowNotAuthenticated() async throws {
        try await DevServer.with { server in
            var connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            connection.webAuthToken = nil
            let container = CKContainer(identifier: server.containerIdentifier, connection: connection)
            let db = container.privateCloudDatabase

            let fetch = try await #require(throws: CKError.self) { try await db.record(for: CKRecord.ID(recordName: "lisbon")) }
            #expect(fetch.code == .notAuthenticated, "record(for:)")

            let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: "lisbon"))
            record["caption"] = "Lisbon"
            let save = try await #require(throws: CKError.self) { try await db.save(record) }
            #expect(save.code == .notAuthenticated, "save(_:) of a record")

            let zones = try await #require(throws: CKError.self) { try await db.allRecordZones() }
            #expect(zones.code == .notAuthenticated, "allRecordZones()")

            let zone = try await #require(throws: CKError.self) { try await db.save(CKRecordZone(zoneName: "Trips")) }
            #expect(zone.code == .notAuthenticated, "save(_:) of a zone")

            let query = CKQuery(recordType: "Destination", predicate: NSPredicate(value: true))
            let search = try await #require(throws: CKError.self) { try await db.records(matching: query) }
            #expect(search.code == .notAuthenticated, "records(matching:)")

            let me = try await #require(throws: CKError.self) { try await container.userRecordID() }
            #expect(me.code == .notAuthenticated, "userRecordID()")
        }
    }
}

/// Looking other accounts up, as `CKContainer`'s user identity calls do.
@Suite struct UserIdentityTests {
    @Test func anAccountIsFoundByEmailAndByUserRecordIDAndAStrangerIsNot() async throws {
        try await DevServer.with { server in
            let alice = try server.container("alice")
            let bobID = try await server.container("bob").userRecordID()
            let byEmail = try #require(try await alice.userIdentity(forEmailAddress: "bob@example.com"))
            #expect(byEmail.userRecordID == bobID && byEmail.lookupInfo?.emailAddress == "bob@example.com" && byEmail.hasiCloudAccount)
            let byID = try #require(try await alice.userIdentity(forUserRecordID: bobID))
            #expect(byID.userRecordID == bobID)
            #expect(try await alice.userIdentity(forEmailAddress: "nobody@example.com") == nil)
        }
    }
}
