import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Synchronization
import Testing

/// The pages a browser meets: the sign-in page a 421's `redirectURL` opens (pick an account on a
/// development server, email and password otherwise; the token handed back by postMessage or a
/// callback redirect), web auth token expiry, and the page a share URL opens (HTML or JSON).
@Suite struct SignInPageTests {
    /// The path and query of the 421's redirectURL for an API-token-only request to the private database.
    static func redirectPath(_ server: TestServer) async throws -> String {
        let response = try await server.post("zones/list", EmptyBody(), as: nil)
        #expect(response.status.code == 421)
        let url = try #require(response.errorBody?.redirectURL)
        let components = try #require(URLComponents(string: url))
        #expect(components.queryItems?.first { $0.name == "container" }?.value == DevSeeder.container)
        return components.path + "?" + (components.percentEncodedQuery ?? "")
    }

    static func form(_ fields: [String: String]) -> ByteBuffer {
        var components = URLComponents()
        components.queryItems = fields.map { URLQueryItem(name: $0.key, value: $0.value) }
        return ByteBuffer(string: components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? "")
    }

    static func post(_ server: TestServer, _ fields: [String: String]) async throws -> TestResponse {
        try await server.client.execute(
            uri: "/stratus/v1/auth/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"], body: form(fields)
        )
    }

    /// The token a signed-in page shows.
    static func token(in page: String) throws -> String {
        let start = try #require(page.range(of: "data-token=\""))
        let end = try #require(page[start.upperBound...].firstIndex(of: "\""))
        return String(page[start.upperBound..<end])
    }

    static func works(_ token: String, _ server: TestServer) async throws -> Bool {
        let uri = "\(TestServer.base)/private/zones/list?ckAPIToken=\(server.credentials.apiToken)&ckWebAuthToken="
            + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)
        return try await server.client.execute(uri: uri, method: .get, headers: [:], body: nil).status == .ok
    }

    @Test func aDevelopmentServerListsItsAccountsAndSignsOneInWithAClick() async throws {
        try await TestServer.run(devSignIn: true) { server in
            let page = try await server.client.execute(uri: try await Self.redirectPath(server), method: .get, headers: [:], body: nil)
            #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("alice@example.com") && page.text.contains("bob@example.com") && page.text.contains("<form"))
            let signedIn = try await Self.post(server, ["container": DevSeeder.container, "email": "alice@example.com"])
            #expect(signedIn.status == .ok && signedIn.text.contains("postMessage({ ckWebAuthToken: shown.dataset.token }, origin)"), "\(signedIn.text)")
            #expect(try await Self.works(try Self.token(in: signedIn.text), server))

            // With a callback, the browser goes back to the app with the token in the query.
            let redirected = try await Self.post(
                server, ["container": DevSeeder.container, "email": "bob@example.com", "callback": "http://localhost:3000/done?x=1"]
            )
            #expect(redirected.status == .seeOther)
            let location = try #require(redirected.headers[.location])
            #expect(location.hasPrefix("http://localhost:3000/done?x=1&ckWebAuthToken="))
            let token = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "ckWebAuthToken" }?.value)
            #expect(try await Self.works(token, server))
        }
    }

    @Test func otherwiseTheAccountsPasswordIsAsked() async throws {
        try await TestServer.run { server in
            let page = try await server.client.execute(uri: try await Self.redirectPath(server), method: .get, headers: [:], body: nil)
            #expect(page.text.contains("type=\"password\"") && !page.text.contains("alice@example.com"))
            let created = try await server.admin("accounts", CreateAccountRequest(email: "dana@example.com", password: "correct horse"))
            #expect(created.status == .ok, "\(created.text)")
            let wrong = try await Self.post(server, ["container": DevSeeder.container, "email": "dana@example.com", "password": "wrong pass"])
            #expect(wrong.status == .unauthorized && wrong.text.contains("wrong password"))
            let noPassword = try await Self.post(server, ["container": DevSeeder.container, "email": "alice@example.com", "password": "anything"])
            #expect(noPassword.status == .unauthorized)
            let right = try await Self.post(server, ["container": DevSeeder.container, "email": "dana@example.com", "password": "correct horse"])
            #expect(right.status == .ok)
            #expect(try await Self.works(try Self.token(in: right.text), server))
        }
    }

    @Test func aWebAuthTokenExpires() async throws {
        // The server's clock, moved by the test.
        let offset = Mutex<Int64>(0)
        let now: @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970 * 1000) + offset.withLock { $0 } }
        try await TestServer.run(now: now) { server in
            let minted = try await server.admin(
                "web-auth-tokens", CreateWebAuthTokenRequest(container: DevSeeder.container, email: "alice@example.com", expiresInSeconds: 60)
            )
            let token = try minted.decode(CreateWebAuthTokenResponse.self).webAuthToken
            #expect(try await Self.works(token, server))
            offset.withLock { $0 = 61_000 }
            let expired = try await server.client.execute(
                uri: "\(TestServer.base)/private/zones/list?ckAPIToken=\(server.credentials.apiToken)&ckWebAuthToken="
                    + (token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token),
                method: .get, headers: [:], body: nil
            )
            #expect(expired.status.code == 421 && expired.errorBody?.reason.contains("expired") == true)
        }
    }

    @Test func aShareURLOpensAPageOrItsMetadata() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            var root = Records.destination("trip", caption: "Lisbon")
            root.createShortGUID = true
            var share = Record(recordName: "trip-share", recordType: "cloudkit.share", fields: ["cloudkit.title": .string("Lisbon trip")])
            share.forRecord = RecordPointer(recordName: "trip")
            share.publicPermission = .readOnly
            let saved = try await server.modify([RecordOperation(.create, root), RecordOperation(.create, share)], zone: "Trips")
            let url = try #require(saved.last?.record?.url)
            let path = try #require(URLComponents(string: url)?.path)
            let html = try await server.client.execute(uri: path, method: .get, headers: [:], body: nil)
            #expect(html.status == .ok && html.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(html.text.contains("Lisbon trip") && html.text.contains("records/accept"))
            let json = try await server.client.execute(uri: path, method: .get, headers: [.accept: "application/json"], body: nil)
            let page = try json.decode(SharePage.self)
            #expect(page.title == "Lisbon trip" && page.publicPermission == .readOnly && !page.zoneWide && page.url == url)
            #expect(try await server.client.execute(uri: "/share/nope", method: .get, headers: [:], body: nil).status == .notFound)
        }
    }
}
