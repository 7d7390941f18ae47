import Foundation
import Testing

@testable import StratusCloudKit

/// A connection from a dev credentials file listing several containers uses each container's own
/// tokens (a token is bound to one container), and the top-level ones for any other.
@Suite struct StratusConnectionTests {
    static let home = "iCloud.com.example.TravelJournal"
    static let other = "iCloud.com.example.Other"

    /// What `stratus serve --dev --container iCloud.com.example.Other` writes, keys as on disk.
    static let twoContainers = """
        {
          "accounts": [
            {"email": "alice@example.com", "name": "alice", "userRecordName": "_a", "webAuthToken": "home-alice"},
            {"email": "bob@example.com", "name": "bob", "userRecordName": "_b", "webAuthToken": "home-bob"}
          ],
          "adminToken": "admin",
          "apiToken": "home-api",
          "container": "iCloud.com.example.TravelJournal",
          "containers": [
            {"apiToken": "home-api", "environment": "development", "identifier": "iCloud.com.example.TravelJournal",
             "webAuthTokens": {"alice": "home-alice", "bob": "home-bob"}},
            {"apiToken": "other-api", "environment": "development", "identifier": "iCloud.com.example.Other",
             "webAuthTokens": {"alice": "other-alice", "bob": "other-bob"}}
          ],
          "environment": "development",
          "serverURL": "http://127.0.0.1:9999"
        }
        """

    /// `json` written to a temporary file, removed after `body`.
    private static func withFile<T>(_ json: String, _ body: (URL) throws -> T) throws -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dev-credentials-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(url)
    }

    @Test func eachContainerGetsItsOwnTokens() throws {
        try Self.withFile(Self.twoContainers) { file in
            let alice = try StratusConnection(devCredentials: file, account: "alice")
            let other = alice.transport(container: Self.other)
            #expect(other.apiToken == "other-api" && other.webAuthToken == "other-alice")
            #expect(other.baseURL == "http://127.0.0.1:9999/database/1/iCloud.com.example.Other/development")
            let home = alice.transport(container: Self.home)
            #expect(home.apiToken == "home-api" && home.webAuthToken == "home-alice")
            #expect(home.baseURL == "http://127.0.0.1:9999/database/1/iCloud.com.example.TravelJournal/development")
            // A container the file does not list: the top-level tokens.
            let unlisted = alice.transport(container: "iCloud.com.example.Unlisted")
            #expect(unlisted.apiToken == "home-api" && unlisted.webAuthToken == "home-alice")

            // Another account (named by email) gets its own token for each container.
            let bob = try StratusConnection(devCredentials: file, account: "bob@example.com")
            #expect(bob.transport(container: Self.other).apiToken == "other-api")
            #expect(bob.transport(container: Self.other).webAuthToken == "other-bob")
            #expect(bob.transport(container: Self.home).webAuthToken == "home-bob")
            let bobByName = try StratusConnection(devCredentials: file, account: "bob")
            #expect(bob == bobByName && bob != alice)
        }
    }

    @Test func theEnvironmentReadsTheSameThroughStratusCredentials() throws {
        try Self.withFile(Self.twoContainers) { file in
            let bob = try StratusConnection.fromEnvironment(["STRATUS_CREDENTIALS": file.path, "STRATUS_ACCOUNT": "bob"])
            #expect(bob.transport(container: Self.other).apiToken == "other-api")
            #expect(bob.transport(container: Self.other).webAuthToken == "other-bob")
            #expect(bob.transport(container: Self.home).webAuthToken == "home-bob")
            let alice = try StratusConnection.fromEnvironment(["STRATUS_CREDENTIALS": file.path, "STRATUS_URL": "http://stratus.test:8080/"])
            let other = alice.transport(container: Self.other)
            #expect(other.apiToken == "other-api" && other.webAuthToken == "other-alice")
            #expect(other.baseURL == "http://stratus.test:8080/database/1/iCloud.com.example.Other/development")
            // The listed tokens are development ones: another environment gets the top-level tokens.
            let production = try StratusConnection.fromEnvironment(["STRATUS_CREDENTIALS": file.path, "STRATUS_ENVIRONMENT": "production"])
            #expect(production.transport(container: Self.other).apiToken == "home-api")
        }
    }

    @Test func signedOutSendsNoWebAuthTokenToAnyContainer() throws {
        try Self.withFile(Self.twoContainers) { file in
            var connection = try StratusConnection(devCredentials: file, account: "alice")
            connection.webAuthToken = nil
            let other = connection.transport(container: Self.other)
            #expect(other.apiToken == "other-api" && other.webAuthToken == nil)
        }
    }

    @Test func aFileWithoutContainersServesEveryContainerWithItsTopLevelTokens() throws {
        let older = """
            {"serverURL": "http://127.0.0.1:9999", "container": "iCloud.com.example.TravelJournal", "environment": "development",
             "apiToken": "home-api", "adminToken": "admin",
             "accounts": [{"name": "alice", "email": "alice@example.com", "userRecordName": "_a", "webAuthToken": "home-alice"}]}
            """
        try Self.withFile(older) { file in
            let alice = try StratusConnection(devCredentials: file, account: "alice")
            for container in [Self.home, Self.other] {
                let transport = alice.transport(container: container)
                #expect(transport.apiToken == "home-api" && transport.webAuthToken == "home-alice")
            }
        }
    }
}

/// `CKContainer.default()` is the container `STRATUS_CONTAINER` names, else the dev credentials
/// file's default container; with neither it is no container at all (`badContainer`), never a
/// demo one, and says what to set.
@Suite struct DefaultContainerTests {
    @Test func theDefaultContainerFollowsTheEnvironment() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString).json")
        try Data(#"{"serverURL":"http://127.0.0.1:1","container":"iCloud.com.example.FromFile","environment":"development","apiToken":"a","adminToken":"b","accounts":[]}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try CKContainer.defaultIdentifier(["STRATUS_CONTAINER": "iCloud.com.example.Named", "STRATUS_CREDENTIALS": file.path]) == "iCloud.com.example.Named")
        #expect(try CKContainer.defaultIdentifier(["STRATUS_CREDENTIALS": file.path]) == "iCloud.com.example.FromFile")
    }

    @Test func withoutAContainerOrCredentialsFileTheDefaultSaysWhatIsMissing() async throws {
        let missing = try #require(throws: StratusConnectionError.self) { try CKContainer.defaultIdentifier([:]) }
        #expect(missing.description.contains("STRATUS_CONTAINER") && missing.description.contains("STRATUS_CREDENTIALS"), "\(missing)")
        let unreadable = try #require(throws: StratusConnectionError.self) {
            try CKContainer.defaultIdentifier(["STRATUS_CREDENTIALS": "/nonexistent/credentials.json"])
        }
        #expect(unreadable.description.contains("/nonexistent/credentials.json"), "\(unreadable)")

        let container = CKContainer.defaultContainer([:])
        #expect(container.containerIdentifier == nil)
        let zones = try await #require(throws: CKError.self) { try await container.privateCloudDatabase.allRecordZones() }
        #expect(zones.code == .badContainer && zones.localizedDescription.contains("STRATUS_CONTAINER"), "\(zones)")
        let status = try await #require(throws: CKError.self) { try await container.accountStatus() }
        #expect(status.code == .badContainer)
    }
}
