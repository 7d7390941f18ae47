import CloudKit
import Foundation
import Testing

/// One connection from the dev credentials file serves every container the server seeded
/// (`stratus serve --dev --container ID`), each with its own tokens and its own databases.
@Suite struct ContainerTests {
    static let other = "iCloud.com.example.Other"

    @Test func oneConnectionServesEverySeededContainer() async throws {
        try await DevServer.with(containers: [Self.other]) { server in
            let connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            let home = CKContainer(identifier: server.containerIdentifier, connection: connection)
            let other = CKContainer(identifier: Self.other, connection: connection)
            #expect(try await other.accountStatus() == .available)
            let otherUser = try await other.userRecordID()
            let homeUser = try await home.userRecordID()
            #expect(otherUser.recordName == homeUser.recordName)

            let zoneID = CKRecordZone.ID(zoneName: "Elsewhere")
            _ = try await other.privateCloudDatabase.save(CKRecordZone(zoneID: zoneID))
            let record = CKRecord(recordType: "Note", recordID: CKRecord.ID(recordName: "first", zoneID: zoneID))
            record["text"] = "written to the other container"
            _ = try await other.privateCloudDatabase.save(record)
            let fetched = try await other.privateCloudDatabase.record(for: record.recordID)
            #expect(fetched["text"] as? String == "written to the other container")
            // The default container's private database is another one.
            let homeZones = try await home.privateCloudDatabase.allRecordZones()
            #expect(!homeZones.contains(where: { $0.zoneID.zoneName == "Elsewhere" }))
        }
    }

    /// A container the server does not have is `badContainer` (as Apple answers an unprovisioned
    /// container), not `notAuthenticated`: nothing an app would tell its user to sign in for.
    @Test func aContainerTheServerDoesNotHaveIsBadContainer() async throws {
        try await DevServer.with { server in
            let connection = try StratusConnection(devCredentials: server.credentials, account: "alice")
            let unknown = CKContainer(identifier: "iCloud.com.example.NoSuchApp", connection: connection)
            let zones = try await #require(throws: CKError.self) { try await unknown.privateCloudDatabase.allRecordZones() }
            #expect(zones.code == .badContainer)
            #expect(zones.localizedDescription.contains("iCloud.com.example.NoSuchApp"), "\(zones)")
            let status = try await #require(throws: CKError.self) { try await unknown.accountStatus() }
            #expect(status.code == .badContainer)
        }
    }
}
