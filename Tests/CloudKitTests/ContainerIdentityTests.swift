import CloudKit
import Testing

/// A container hands out the same database objects on every access, and tells the app when the
/// account it uses changes (`CKAccountChanged`), as Apple's does.
@Suite struct ContainerIdentityTests {
    @Test func databasesAreTheSameObjectsOnEveryAccess() throws {
        let container = CKContainer(identifier: "iCloud.com.example.Identity")
        #expect(container.privateCloudDatabase === container.privateCloudDatabase)
        #expect(container.sharedCloudDatabase === container.database(with: .shared))
        #expect(container.publicCloudDatabase === container.publicCloudDatabase)
        #expect(container.privateCloudDatabase !== container.sharedCloudDatabase)
    }

    @Test func aSignedOutAccountPostsCKAccountChanged() async throws {
        try await DevServer.with { server in
            let container = try server.container("alice")
            _ = try await container.userRecordID()
            let posted = Locked(0)
            let observer = NotificationCenter.default.addObserver(forName: .CKAccountChanged, object: container, queue: nil) { _ in
                posted.update { $0 += 1 }
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            #expect(try await container.accountStatus() == .available)
            #expect(posted.value == 0)

            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: server.credentials)) as? [String: Any] ?? [:]
            let alice = (json["accounts"] as? [[String: Any]])?.first { $0["name"] as? String == "alice" }
            let token = try #require(alice?["webAuthToken"] as? String)
            #expect(try await server.stratus(["account", "revoke-token", token]) == 0)
            #expect(try await container.accountStatus() == .noAccount)
            #expect(posted.value == 1)
        }
    }
}
