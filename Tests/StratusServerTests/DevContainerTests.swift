import Foundation
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// `stratus serve --dev --container ID`: each further container seeded with an API token and web
/// auth tokens of its own (a token is bound to one container), listed in the credentials'
/// `containers` beside the default one, and kept across restarts.
@Suite("dev containers")
struct DevContainerTests {
    static let other = "iCloud.com.example.Other"

    /// POSTs `path` (`zones/list`) to `container`'s development private database with these tokens.
    private static func send(
        _ server: TestServer, _ path: String, container: String, apiToken: String, webAuthToken: String, body: String = "{}"
    ) async throws -> TestResponse {
        try await server.client.execute(
            uri: "/database/1/\(container)/development/private/\(path)?ckAPIToken=\(apiToken)&ckWebAuthToken=\(webAuthToken)",
            method: .post, headers: [:], body: ByteBuffer(string: body)
        )
    }

    /// The zone names of a zones/list answer.
    private static func zoneNames(_ response: TestResponse) throws -> [String] {
        try response.decode(ZonesResponse.self).zones.compactMap { $0.value?.zoneID.zoneName }
    }

    @Test("a further container answers to its own tokens, and only it does; the default container's do not stand for them")
    func furtherContainerHasItsOwnTokens() async throws {
        // A repeat and the default container itself are seeded once.
        try await TestServer.run(containers: [Self.other, Self.other, DevSeeder.container]) { server in
            let credentials = server.credentials
            #expect(credentials.containers?.map(\.identifier) == [DevSeeder.container, Self.other])
            let home = try #require(credentials.seededContainer(DevSeeder.container))
            let own = try #require(credentials.seededContainer(Self.other))
            let alice = try #require(credentials.account("alice"))
            #expect(home.apiToken == credentials.apiToken && home.webAuthTokens["alice"] == alice.webAuthToken)
            #expect(own.environment == "development" && Set(own.webAuthTokens.keys) == Set(DevSeeder.accountNames))
            let ownAlice = try #require(own.webAuthTokens["alice"])
            #expect(own.apiToken != credentials.apiToken && ownAlice != alice.webAuthToken)

            // Its API token and alice's token for it open its private database, as alice.
            let listed = try await Self.send(server, "zones/list", container: Self.other, apiToken: own.apiToken, webAuthToken: ownAlice)
            #expect(listed.status == .ok, "\(listed.text)")
            #expect(try Self.zoneNames(listed) == ["_defaultZone"], "\(listed.text)")
            let created = try await Self.send(
                server, "zones/modify", container: Self.other, apiToken: own.apiToken, webAuthToken: ownAlice,
                body: #"{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Elsewhere"}}}]}"#
            )
            #expect(created.status == .ok, "\(created.text)")
            let caller = try await server.client.execute(
                uri: "/database/1/\(Self.other)/development/public/users/caller?ckAPIToken=\(own.apiToken)&ckWebAuthToken=\(ownAlice)",
                method: .get, headers: [:], body: nil
            )
            #expect(try caller.decode(CallerIdentityResponse.self).userRecordName == alice.userRecordName, "\(caller.text)")
            if let bob = own.webAuthTokens["bob"] {
                let asBob = try await Self.send(server, "zones/list", container: Self.other, apiToken: own.apiToken, webAuthToken: bob)
                #expect(asBob.status == .ok, "\(asBob.text)")
                #expect(try !Self.zoneNames(asBob).contains("Elsewhere"), "bob sees alice's zone")
            }

            // The default container's tokens do not open it, in whole or in part...
            let defaultTokens = try await Self.send(
                server, "zones/list", container: Self.other, apiToken: credentials.apiToken, webAuthToken: alice.webAuthToken
            )
            #expect(defaultTokens.status == .unauthorized, "\(defaultTokens.text)")
            let defaultAPIToken = try await Self.send(server, "zones/list", container: Self.other, apiToken: credentials.apiToken, webAuthToken: ownAlice)
            #expect(defaultAPIToken.status == .unauthorized, "\(defaultAPIToken.text)")
            let defaultWebAuthToken = try await Self.send(
                server, "zones/list", container: Self.other, apiToken: own.apiToken, webAuthToken: alice.webAuthToken
            )
            // A web auth token this container never issued asks for sign-in (421), as any unknown one does.
            #expect(defaultWebAuthToken.status.code == 421, "\(defaultWebAuthToken.text)")
            // ...nor its tokens the default container, whose database is another one.
            let ownInDefault = try await Self.send(
                server, "zones/list", container: DevSeeder.container, apiToken: own.apiToken, webAuthToken: ownAlice
            )
            #expect(ownInDefault.status == .unauthorized, "\(ownInDefault.text)")
            let homeList = try await Self.send(
                server, "zones/list", container: DevSeeder.container, apiToken: credentials.apiToken, webAuthToken: alice.webAuthToken
            )
            #expect(homeList.status == .ok, "\(homeList.text)")
            #expect(try !Self.zoneNames(homeList).contains("Elsewhere"), "the default container shows the other's zone")
        }
    }

    @Test("a restart keeps a further container's tokens, minting again only those that no longer resolve")
    func furtherContainerTokensSurviveARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-containers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = try await TestServer.run(directory: directory, containers: [Self.other]) { server in
            server.credentials
        }
        let own = try #require(credentials.seededContainer(Self.other))
        let revoked = try await TestServer.run(directory: directory, previous: credentials, containers: [Self.other]) { server in
            #expect(server.credentials == credentials, "credentials changed across the restart")
            let alice = try #require(own.webAuthTokens["alice"])
            let listed = try await Self.send(server, "zones/list", container: Self.other, apiToken: own.apiToken, webAuthToken: alice)
            #expect(listed.status == .ok, "\(listed.text)")
            // Revoke bob's token for the further container: the next start mints him another.
            let bob = try #require(own.webAuthTokens["bob"])
            let response = try await server.admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: bob))
            #expect(response.status == .ok, "\(response.text)")
            return bob
        }
        try await TestServer.run(directory: directory, previous: credentials, containers: [Self.other]) { server in
            let again = try #require(server.credentials.seededContainer(Self.other))
            #expect(again.apiToken == own.apiToken && again.webAuthTokens["alice"] == own.webAuthTokens["alice"])
            #expect(again.webAuthTokens["carol"] == own.webAuthTokens["carol"])
            let bob = try #require(again.webAuthTokens["bob"])
            #expect(bob != revoked)
            let asBob = try await Self.send(server, "zones/list", container: Self.other, apiToken: again.apiToken, webAuthToken: bob)
            #expect(asBob.status == .ok, "\(asBob.text)")
            // The default container's credentials are untouched.
            #expect(server.credentials.apiToken == credentials.apiToken && server.credentials.accounts == credentials.accounts)
        }
    }

    @Test("a restart after revoking bob's default-container token mints that token alone, and says so")
    func revokedDefaultTokenIsTheOnlyOneMintedAgain() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-containers-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let credentials = try await TestServer.run(directory: directory) { server in
            let bob = try #require(server.credentials.account("bob")?.webAuthToken)
            let response = try await server.admin("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: bob))
            #expect(response.status == .ok, "\(response.text)")
            return server.credentials
        }
        try await TestServer.run(directory: directory) { server in
            let (again, reminted) = try await DevSeeder(identity: server.identity).seedReporting(previous: credentials, serverURL: "http://127.0.0.1")
            #expect(reminted == ["bob's web auth token"])
            #expect(again.apiToken == credentials.apiToken && again.adminToken == credentials.adminToken)
            #expect(again.account("alice") == credentials.account("alice") && again.account("carol") == credentials.account("carol"))
            #expect(again.account("bob")?.webAuthToken != credentials.account("bob")?.webAuthToken)
        }
    }

    @Test("without further containers, the credentials list the default one alone")
    func defaultContainerListedAlone() async throws {
        try await TestServer.run { server in
            #expect(server.credentials.containers?.map(\.identifier) == [DevSeeder.container])
        }
    }
}
