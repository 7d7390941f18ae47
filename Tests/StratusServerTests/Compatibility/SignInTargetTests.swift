import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// Where the sign-in page may hand a web auth token: only to a callback URL or opener origin the
/// API token registered (loopback pages too on a development server), never for a container the
/// server does not have; and an API token that lists origins refuses browser requests from others.
@Suite struct SignInTargetTests {
    static let app = "https://app.example.com"

    /// Mints an API token with these settings (admin API).
    static func apiToken(_ server: TestServer, origins: [String] = [], callback: String? = nil) async throws -> String {
        let created = try await server.admin(
            "api-tokens",
            CreateAPITokenRequest(container: DevSeeder.container, environment: .development, allowedOrigins: origins, signInCallbackURL: callback)
        )
        #expect(created.status == .ok, "\(created.text)")
        return try created.decode(CreateAPITokenResponse.self).apiToken
    }

    static func page(_ server: TestServer, _ query: String, referer: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if let referer { headers[.referer] = referer }
        return try await server.client.execute(uri: "/stratus/v1/auth/signin?\(query)", method: .get, headers: headers, body: nil)
    }

    /// The value of a hidden form field on a page.
    static func hidden(_ name: String, in page: String) -> String? {
        guard let field = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        return page[field.upperBound...].split(separator: "\"", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
    }

    @Test func aCallbackNoAPITokenRegisteredGetsNoTokenAndNoOneSignsIn() async throws {
        try await TestServer.run(devSignIn: true) { server in
            let stolen = try await SignInPageTests.post(
                server, ["container": DevSeeder.container, "email": "alice@example.com", "callback": "https://evil.example/steal"]
            )
            #expect(stolen.status == .badRequest && stolen.headers[.location] == nil, "\(stolen.status)")
            #expect(!stolen.text.contains("data-token") && stolen.text.contains("not registered"))
            // Naming a real API token does not help a callback it did not register.
            let token = try await Self.apiToken(server, callback: "\(Self.app)/signed-in")
            let other = try await SignInPageTests.post(
                server,
                ["container": DevSeeder.container, "email": "alice@example.com", "callback": "https://evil.example/signed-in", "ckAPIToken": token]
            )
            #expect(other.status == .badRequest && other.headers[.location] == nil)
        }
    }

    @Test func signInRefusesAContainerTheServerDoesNotHave() async throws {
        try await TestServer.run(devSignIn: true) { server in
            let refused = try await SignInPageTests.post(server, ["container": "iCloud.com.example.Nowhere", "email": "alice@example.com"])
            #expect(refused.status == .notFound && !refused.text.contains("data-token") && refused.text.contains("no container"))
        }
    }

    @Test func theRegisteredCallbackGetsTheTokenOnAPasswordServer() async throws {
        try await TestServer.run { server in
            let created = try await server.admin("accounts", CreateAccountRequest(email: "dana@example.com", password: "correct horse"))
            #expect(created.status == .ok)
            let token = try await Self.apiToken(server, callback: "\(Self.app)/signed-in")
            var fields = [
                "container": DevSeeder.container, "email": "dana@example.com", "password": "correct horse",
                "callback": "\(Self.app)/signed-in?state=7", "ckAPIToken": token,
            ]
            let redirected = try await SignInPageTests.post(server, fields)
            #expect(redirected.status == .seeOther)
            #expect(redirected.headers[.location]?.hasPrefix("\(Self.app)/signed-in?state=7&ckWebAuthToken=") == true)
            // A loopback callback is a development convenience only.
            fields["callback"] = "http://localhost:3000/done"
            let loopback = try await SignInPageTests.post(server, fields)
            #expect(loopback.status == .badRequest && loopback.headers[.location] == nil)
            // Another path of the same host is another URL.
            fields["callback"] = "\(Self.app)/elsewhere"
            #expect(try await SignInPageTests.post(server, fields).status == .badRequest)
        }
    }

    @Test func theTokenIsPostedOnlyToARegisteredOpenerOrigin() async throws {
        try await TestServer.run(devSignIn: true) { server in
            let token = try await Self.apiToken(server, origins: [Self.app])
            // The 421 names the request's API token, so the page applies its settings.
            let refused = try await server.client.execute(
                uri: "\(TestServer.base)/private/zones/list?ckAPIToken=\(token)", method: .get, headers: [:], body: nil
            )
            let redirect = try #require(refused.errorBody?.redirectURL)
            #expect(redirect.contains("ckAPIToken=\(token)"))
            let query = "container=\(DevSeeder.container)&ckAPIToken=\(token)"

            let fromApp = try await Self.page(server, query, referer: "\(Self.app)/journal/index.html")
            #expect(Self.hidden("origin", in: fromApp.text) == Self.app && Self.hidden("ckAPIToken", in: fromApp.text) == token)
            let fromElsewhere = try await Self.page(server, query, referer: "https://evil.example/")
            #expect(Self.hidden("origin", in: fromElsewhere.text) == "")

            let base = ["container": DevSeeder.container, "email": "alice@example.com", "ckAPIToken": token]
            let signedIn = try await SignInPageTests.post(server, base.merging(["origin": Self.app]) { $1 })
            #expect(signedIn.status == .ok && signedIn.text.contains("data-origin=\"\(Self.app)\""))
            #expect(try await SignInPageTests.works(try SignInPageTests.token(in: signedIn.text), server))
            let evil = try await SignInPageTests.post(server, base.merging(["origin": "https://evil.example"]) { $1 })
            #expect(evil.status == .badRequest && !evil.text.contains("data-token"))
            // With no origin the page shows the token to the person signing in and posts it nowhere.
            let shown = try await SignInPageTests.post(server, base)
            #expect(shown.status == .ok && shown.text.contains("data-origin=\"\""))
        }
    }

    @Test func anAPITokenThatListsOriginsRefusesBrowserRequestsFromOthers() async throws {
        try await TestServer.run { server in
            let token = try await Self.apiToken(server, origins: [Self.app])
            func status(origin: String?) async throws -> Int {
                var headers: HTTPFields = [.contentType: "application/json"]
                if let origin { headers[.origin] = origin }
                return try await server.client.execute(
                    uri: "\(TestServer.base)/public/records/query?ckAPIToken=\(token)", method: .post, headers: headers,
                    body: ByteBuffer(string: #"{"query":{"recordType":"Place"}}"#)
                ).status.code
            }
            #expect(try await status(origin: Self.app) == 200)
            #expect(try await status(origin: "https://APP.example.com:443") == 200)
            #expect(try await status(origin: nil) == 200)
            #expect(try await status(origin: "https://evil.example") == 401)
            // The dev token lists none: any origin, as CloudKit's "any domain".
            let open = try await server.client.execute(
                uri: "\(TestServer.base)/public/records/query?\(server.query(nil))", method: .post,
                headers: [.contentType: "application/json", .origin: "https://evil.example"],
                body: ByteBuffer(string: #"{"query":{"recordType":"Place"}}"#)
            )
            #expect(open.status == .ok)
        }
    }

    @Test func anOperatorChangesATokensSettingsAndBadOnesAreRefused() async throws {
        try await TestServer.run { server in
            let token = try await Self.apiToken(server)
            let updated = try await server.admin(
                "api-tokens/update",
                UpdateAPITokenRequest(apiToken: token, allowedOrigins: ["HTTPS://App.Example.com/"], signInCallbackURL: "\(Self.app)/in")
            )
            #expect(try updated.decode(APITokenInfo.self).allowedOrigins == [Self.app])
            let cleared = try await server.admin("api-tokens/update", UpdateAPITokenRequest(apiToken: token, signInCallbackURL: ""))
            let info = try cleared.decode(APITokenInfo.self)
            #expect(info.allowedOrigins == [Self.app] && info.signInCallbackURL == nil)
            for bad in [["ftp://app.example.com"], ["https://app.example.com/path"], ["*"]] {
                let refused = try await server.admin("api-tokens/update", UpdateAPITokenRequest(apiToken: token, allowedOrigins: bad))
                #expect(refused.status == .badRequest, "\(bad)")
            }
            let unknown = try await server.admin("api-tokens/update", UpdateAPITokenRequest(apiToken: String(repeating: "0", count: 64)))
            #expect(unknown.status == .notFound)
            let badCreate = try await server.admin(
                "api-tokens", CreateAPITokenRequest(container: DevSeeder.container, environment: .development, signInCallbackURL: "javascript:x")
            )
            #expect(badCreate.status == .badRequest)
        }
    }
}
