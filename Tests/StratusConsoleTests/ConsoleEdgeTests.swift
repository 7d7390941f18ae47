import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The console with input no browser of ours sends: malformed forms, stale or foreign forms,
/// unknown pages; and what signing out takes back.
@Suite("Console: edges")
struct ConsoleEdgeTests {
    @Test("malformed percent-encoding in a form or a query is skipped, never a crash (the sign-in page too)")
    func malformedForms() async throws {
        try await TestServer.run { server in
            for body in ["adminToken=%", "adminToken=%zz&x=%", "%=%&&=&adminToken"] {
                let answer = try await server.client.execute(
                    uri: "/console/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: body)
                )
                #expect(answer.status == .unauthorized, "\(body)")
            }
            let page = try await server.client.execute(uri: "/console?container=%zz&x=%", method: .get, headers: [:], body: nil)
            #expect(page.status == .ok)
            let signIn = try await server.client.execute(
                uri: "/stratus/v1/auth/signin", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "container=%&email=a b%")
            )
            #expect(signIn.status == .badRequest)
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let accounts = try await browser.get("/console/c/\(DevSeeder.container)/development/accounts?x=%")
            #expect(accounts.status == .ok)
            let unknown = try await browser.get("/console/no/such/page")
            #expect(unknown.text.contains("There is no such console page."))
        }
    }

    @Test("signing out needs the console's own form; it removes the subscriptions the console added")
    func signOut() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            _ = try await browser.get("\(base)/side-by-side")
            let alice = server.userRecordName("alice")
            let watch = try await browser.post("\(base)/watch", [("user", alice), ("database", "private")], follow: false)
            #expect(watch.status == .ok)
            let during = try await server.raw("subscriptions/list", as: "alice", body: nil, method: .get).decode(SubscriptionsResponse.self)
            #expect(during.subscriptions.compactMap(\.value?.subscriptionID) == ["stratus-console-private"])

            let foreign = try await browser.post("/console/sign-out", [], formToken: "0", follow: false)
            #expect(foreign.headers[.location] == "/console")
            #expect(try await browser.get("/console").text.contains("still signed in"))
            _ = try await browser.post("/console/sign-out", [], follow: false)
            #expect(try await browser.get("\(base)/timeline").status == .seeOther)
            let after = try await server.raw("subscriptions/list", as: "alice", body: nil, method: .get).decode(SubscriptionsResponse.self)
            #expect(after.subscriptions.isEmpty)
        }
    }

    @Test("an account with its own database subscription gets none from the console")
    func existingSubscription() async throws {
        try await TestServer.run { server in
            let mine = Subscription(subscriptionID: "device", kind: .database)
            _ = try await server.call(
                "subscriptions/modify", ModifySubscriptionsRequest(operations: [.init(.create, mine)]), database: "private", as: "bob",
                expecting: SubscriptionsResponse.self
            )
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            _ = try await browser.get("\(base)/side-by-side")
            _ = try await browser.post("\(base)/watch", [("user", server.userRecordName("bob")), ("database", "private")], follow: false)
            let listed = try await server.raw("subscriptions/list", as: "bob", body: nil, method: .get).decode(SubscriptionsResponse.self)
            #expect(listed.subscriptions.compactMap(\.value?.subscriptionID) == ["device"])
        }
    }

    @Test("a reference typed as a record name; quota, revocation and database compaction from the accounts page")
    func referencesAndAccountTools() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trip")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            let alice = "\(base)/u/\(server.userRecordName("alice"))/private"
            _ = try await browser.get(alice)
            for (name, field, type, value) in [("day1", "title", "STRING", "Day one"), ("day2", "link", "REFERENCE", "day1")] {
                let saved = try await browser.post("\(alice)/records", [
                    ("operation", "save"), ("zone", "Trip"), ("name", name), ("recordType", "Day"), ("field", field), ("type", type),
                    ("value", value), ("back", alice),
                ])
                #expect(saved.text.contains("Record \(name) created."), "\(saved.text.components(separatedBy: "role=\"").dropFirst().first ?? "")")
            }
            let day2 = try #require(try await server.lookup(["day2"], zone: "Trip").first?.record)
            guard case .reference(let reference)? = day2.fields?["link"]?.value else {
                Issue.record("link is not a reference: \(String(describing: day2.fields))")
                return
            }
            #expect(reference.recordName == "day1")

            _ = try await browser.get("\(base)/accounts")
            let quota = try await browser.post("\(base)/accounts", [
                ("operation", "quota"), ("account", server.userRecordName("bob")), ("bytes", "1000"), ("back", "\(base)/accounts"),
            ])
            #expect(quota.text.contains("Quota 1000 bytes"))
            let token = try #require(server.credentials.account("carol")?.webAuthToken)
            let revoked = try await browser.post("\(base)/accounts", [("operation", "revoke"), ("token", token), ("back", "\(base)/accounts")])
            #expect(revoked.text.contains("revoked"))
            #expect(try await server.post("zones/list", EmptyBody(), as: "carol").status.code == 421)
            let old = try await server.call("changes/database", DatabaseChangesRequest(), expecting: DatabaseChangesResponse.self).syncToken
            let compacted = try await browser.post("\(base)/accounts", [
                ("operation", "compact"), ("account", server.userRecordName("alice")), ("database", "private"), ("back", "\(base)/accounts"),
            ])
            #expect(compacted.text.contains("compacted"))
            let expired = try await server.post("changes/database", DatabaseChangesRequest(syncToken: old))
            #expect(expired.status == .badRequest && expired.errorBody?.nativeErrorCode == 21, "\(expired.text)")
        }
    }

    @Test("a default zone pages through its record types (the public database has no change feed)")
    func defaultZonePaging() async throws {
        try await TestServer.run { server in
            var operations = (0..<60).map { RecordOperation(.create, Record(recordName: "place\($0)", recordType: "Place", fields: ["n": .int64(Int64($0))])) }
            operations += (0..<3).map { RecordOperation(.create, Record(recordName: "note\($0)", recordType: "Note", fields: ["n": .int64(Int64($0))])) }
            let saved = try await server.post("records/modify", ModifyRecordsRequest(operations: operations), database: "public", as: "alice")
            #expect(saved.status == .ok)
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            var page = "/console/c/\(DevSeeder.container)/development/u/\(server.userRecordName("alice"))/public/zone?zone=_defaultZone"
            var seen = Set<String>()
            var pages = 0
            while pages < 5 {
                let answer = try await browser.get(page)
                pages += 1
                for name in (0..<60).map({ "place\($0)" }) + (0..<3).map({ "note\($0)" }) where answer.text.contains(">\(name)</a>") {
                    seen.insert(name)
                }
                guard let next = ConsoleBrowser.link("Next page", in: answer.text) else { break }
                page = next
            }
            #expect(pages == 2 && seen.count == 63, "\(pages) pages, \(seen.count) records")
        }
    }

    @Test("the accounts page mints an API token with its allowed origins and sign-in callback, and changes them")
    func apiTokenSettings() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            _ = try await browser.get("\(base)/accounts")
            let minted = try await browser.post("\(base)/accounts", [
                ("operation", "apiToken"), ("origins", "https://app.example.com"), ("callback", "https://app.example.com/in"),
                ("back", "\(base)/accounts"),
            ])
            let marker = try #require(minted.text.range(of: "(development, shown once): "))
            let token = String(minted.text[marker.upperBound...].prefix(64))
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "\(token)")
            let saved = try await browser.post("\(base)/accounts", [
                ("operation", "apiTokenSettings"), ("apiToken", token), ("origins", "https://a.example.com, https://b.example.com"),
                ("callback", ""), ("back", "\(base)/accounts"),
            ])
            #expect(saved.text.contains("https://a.example.com, https://b.example.com; sign-in callback none"), "\(saved.text)")
            let refused = try await browser.post("\(base)/accounts", [
                ("operation", "apiTokenSettings"), ("apiToken", token), ("origins", "ftp://x"), ("back", "\(base)/accounts"),
            ])
            #expect(refused.text.contains("not an http(s) origin"))
        }
    }

    @Test("a development server offers its own machine a one-click sign-in, never a proxied or cross-site request")
    func localSignIn() async throws {
        let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        try await TestServer.run(consoleLocalSignIn: true, live: true) { server in
            let page = try await server.client.execute(uri: "/console", method: .get, headers: [:], body: nil)
            #expect(page.text.contains("Sign in on this machine"))
            let signedIn = try await server.client.execute(uri: "/console/sign-in", method: .post, headers: form, body: ByteBuffer(string: "local=1"))
            #expect(signedIn.status == .seeOther && signedIn.headers[.setCookie]?.contains("stratus-console=") == true, "\(signedIn.status)")
            var proxied = form
            proxied[HTTPField.Name("X-Forwarded-For")!] = "203.0.113.9"
            let viaProxy = try await server.client.execute(uri: "/console/sign-in", method: .post, headers: proxied, body: ByteBuffer(string: "local=1"))
            #expect(viaProxy.status == .unauthorized)
            var crossSite = form
            crossSite[.origin] = "https://evil.example"
            let fromElsewhere = try await server.client.execute(uri: "/console/sign-in", method: .post, headers: crossSite, body: ByteBuffer(string: "local=1"))
            #expect(fromElsewhere.status == .unauthorized)
            let tunnel = try RawConnection(port: try #require(server.client.port))
            try tunnel.send(
                "POST /console/sign-in HTTP/1.1\r\nHost: stratus.example.com\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                    + "Content-Length: 7\r\n\r\nlocal=1"
            )
            let throughTunnel = try await tunnel.receive(waiting: 5)
            #expect(throughTunnel.hasPrefix("HTTP/1.1 401"), "a public host name passed on by a proxy without forwarding headers: \(throughTunnel.prefix(40))")
        }
        try await TestServer.run(live: true) { server in
            let page = try await server.client.execute(uri: "/console", method: .get, headers: [:], body: nil)
            #expect(!page.text.contains("Sign in on this machine"), "not offered unless the server offers it")
            let refused = try await server.client.execute(uri: "/console/sign-in", method: .post, headers: form, body: ByteBuffer(string: "local=1"))
            #expect(refused.status == .unauthorized)
        }
    }
}
