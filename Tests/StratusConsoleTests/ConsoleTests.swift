import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// The console at `/console`, over real HTTP: signing in with the admin token, browsing by
/// links, acting as accounts (their writes are theirs), sharing, faults in the timeline, the
/// schema, signing out; and the admin endpoints it reads (accounts, containers, activity).
@Suite("Console")
struct ConsoleTests {
    @Test("signed out: the sign-in form; a wrong token is refused; pages send the browser to sign in")
    func signedOut() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            let form = try await browser.get("/console")
            #expect(form.status == .ok)
            #expect(form.text.contains(#"type="password""#))
            let refused = try await browser.signIn("not-the-token")
            #expect(refused.status == .unauthorized)
            #expect(refused.text.contains("not an admin token"))
            #expect(browser.cookie == nil)
            let account = try await browser.get("/console/c/\(DevSeeder.container)/development/u/\(server.userRecordName("alice"))")
            #expect(account.status == .seeOther)
            #expect(account.headers[.location] == "/console")
        }
    }

    @Test("signed in: accounts, databases and zones by link; alice's zone and record made through the console are hers")
    func browseAndActAs() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            let signedIn = try await browser.signIn()
            #expect(signedIn.status == .seeOther)
            let setCookie = try #require(signedIn.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Strict") && setCookie.contains("Path=/console"))
            #expect(!setCookie.contains(server.credentials.adminToken))

            let home = try await browser.get("/console")
            for name in ["alice", "bob", "carol"] { #expect(home.text.contains("\(name)@example.com")) }
            let alice = try #require(ConsoleBrowser.link("alice", in: home.text))
            let account = try await browser.get(alice)
            for label in ["Private", "Shared", "Public"] { #expect(ConsoleBrowser.link(label, in: account.text) != nil) }
            let privateDatabase = try #require(ConsoleBrowser.link("Private", in: account.text))

            let created = try await browser.post("\(privateDatabase)/zones", [("operation", "create"), ("zone", "Lisbon"), ("back", privateDatabase)])
            #expect(created.text.contains("Zone Lisbon created."))
            let saved = try await browser.post("\(privateDatabase)/records", [
                ("operation", "save"), ("zone", "Lisbon"), ("name", "tram"), ("recordType", "Destination"), ("field", "title"),
                ("type", "STRING"), ("value", "Tram 28"), ("back", privateDatabase),
            ])
            #expect(saved.text.contains("Record tram created."))
            let database = try await browser.get(privateDatabase)
            let zone = try await browser.get(try #require(ConsoleBrowser.link("Lisbon", in: database.text)))
            #expect(zone.text.contains("tram") && zone.text.contains("Tram 28"))

            // Through the CKWS API: the record is alice's, written from the console's device.
            let record = try #require(try await server.lookup(["tram"], zone: "Lisbon").first?.record)
            #expect(record.modified?.userRecordName == server.userRecordName("alice"))
            #expect(record.modified?.deviceID == "stratus-console")

            // Edit through the record page, then a readable CloudKit error for a bad value; nothing changes.
            let page = try await browser.get(try #require(ConsoleBrowser.link("tram", in: zone.text)))
            let tag = try #require(record.recordChangeTag)
            let edited = try await browser.post("\(privateDatabase)/records", [
                ("operation", "edit"), ("zone", "Lisbon"), ("name", "tram"), ("changeTag", tag), ("field.title", "Tram 28E"),
                ("type.title", "STRING"), ("newField", "stops"), ("newType", "INT64"), ("newValue", "12"), ("back", "/console"),
            ])
            #expect(edited.text.contains("Record tram saved."), "\(page.status)")
            let bad = try await browser.post("\(privateDatabase)/records", [
                ("operation", "save"), ("zone", "Lisbon"), ("name", "tram"), ("field", "stops"), ("type", "INT64"), ("value", "twelve"),
                ("back", "/console"),
            ])
            #expect(bad.text.contains("not a valid INT64 value"))
            let stale = try await browser.post("\(privateDatabase)/records", [
                ("operation", "edit"), ("zone", "Lisbon"), ("name", "tram"), ("changeTag", tag), ("field.title", "lost"),
                ("type.title", "STRING"), ("back", "/console"),
            ])
            #expect(stale.text.contains("CONFLICT"), "an edit from an old change tag answers CKWS's conflict")
            let badZone = try await browser.post("\(privateDatabase)/zones", [("operation", "create"), ("zone", "_reserved"), ("back", privateDatabase)])
            #expect(badZone.text.contains("BAD_REQUEST"), "\(badZone.text.components(separatedBy: "role=\"").dropFirst().first ?? "")")
            let now = try #require(try await server.lookup(["tram"], zone: "Lisbon").first?.record)
            #expect(now.fields?["title"]?.value == .string("Tram 28E"))
            #expect(now.fields?["stops"]?.value == .int64(12))

            // A form without the session's form token changes nothing.
            let forged = try await browser.post("\(privateDatabase)/zones", [("operation", "create"), ("zone", "Forged"), ("back", privateDatabase)], formToken: "0")
            #expect(forged.text.contains("stale"))
            let zones = try await server.call("zones/list", EmptyBody(), database: "private", as: "alice", expecting: ZonesResponse.self)
            #expect(!zones.zones.contains { $0.value?.zoneID.zoneName == "Forged" })

            for response in [home, account, database, zone, page, edited] {
                #expect(!response.text.contains(server.credentials.adminToken))
            }
        }
    }

    @Test("sharing from the owner's side: invite, accept as bob, change his permission, remove him, stop sharing")
    func sharing() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            _ = try await browser.get("/console")
            try await server.createZone("Trip")
            _ = try await server.modify([Records.create("day1", caption: "Day one")], zone: "Trip")
            let alice = "/console/c/\(DevSeeder.container)/development/u/\(server.userRecordName("alice"))/private"
            let shared = try await browser.post("\(alice)/share", [
                ("operation", "create"), ("zone", "Trip"), ("email", server.email("bob")), ("permission", "READ_WRITE"), ("back", alice),
            ])
            #expect(shared.text.contains("Zone Trip shared."))
            #expect(shared.text.contains("INVITED"))
            let accept = try #require(shared.text.range(of: #"action="([^"]+/accept)""#, options: .regularExpression).map { String(shared.text[$0]) })
            let acceptPath = String(accept.dropFirst("action=\"".count).dropLast())
            let guid = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Trip").first?.record?.shortGUID)
            let accepted = try await browser.post(acceptPath, [("shortGUID", guid), ("back", "/console")])
            #expect(accepted.text.contains("Share accepted"))
            #expect(ConsoleBrowser.link("Trip", in: accepted.text) != nil, "bob's shared database lists alice's zone")

            let sharePage = "\(alice)/share?zone=Trip&name=cloudkit.zoneshare"
            _ = try await browser.get(sharePage)
            // Someone without an account yet: invited by email, kept through later changes.
            let invited = try await browser.post("\(alice)/share", [
                ("operation", "invite"), ("zone", "Trip"), ("name", ShareNames.zoneWideShare), ("email", "dave@example.com"),
                ("permission", "READ_ONLY"), ("back", sharePage),
            ])
            #expect(invited.text.contains("dave@example.com"), "\(invited.text.components(separatedBy: "role=\"").dropFirst().first ?? "")")
            let current = try #require(try await server.lookup([ShareNames.zoneWideShare], zone: "Trip").first?.record)
            let bobUser = server.userRecordName("bob")
            let bob = try #require(current.participants?.first { $0.userIdentity?.userRecordName == bobUser }?.participantId)
            let readOnly = try await browser.post("\(alice)/share", [
                ("operation", "permission"), ("zone", "Trip"), ("name", ShareNames.zoneWideShare), ("participant", bob), ("permission", "READ_ONLY"),
                ("back", sharePage),
            ])
            #expect(readOnly.text.contains("READ_ONLY") && readOnly.text.contains("ACCEPTED"))
            let denied = try await server.sharedModify([Records.create("day2")], zone: "Trip", of: "alice", as: "bob")
            #expect(denied.first?.error?.serverErrorCode == .accessDenied)
            let removed = try await browser.post("\(alice)/share", [
                ("operation", "remove"), ("zone", "Trip"), ("name", ShareNames.zoneWideShare), ("participant", bob), ("back", sharePage),
            ])
            #expect(removed.text.contains("Participant removed.") && removed.text.contains("dave@example.com"))
            #expect(try await server.sharedLookup(["day1"], zone: "Trip", of: "alice", as: "bob").first?.record == nil)
            let stopped = try await browser.post("\(alice)/share", [
                ("operation", "stop"), ("zone", "Trip"), ("name", ShareNames.zoneWideShare), ("back", sharePage),
            ])
            #expect(stopped.text.contains("Stopped sharing"))
            #expect(try await server.lookup([ShareNames.zoneWideShare], zone: "Trip").first?.record == nil)
        }
    }

    @Test("a THROTTLED rule fails the console's save and fires in the timeline and the activity feed; schema; sign out")
    func faultsTimelineSchemaAndSignOut() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            _ = try await browser.get("\(base)/faults")
            let added = try await browser.post("\(base)/faults", [
                ("operation", "add"), ("effect", "error"), ("code", "THROTTLED"), ("retryAfter", "2"), ("endpoint", "records/modify"),
                ("count", "1"), ("back", "\(base)/faults"),
            ])
            #expect(added.text.contains("THROTTLED, retry after 2 s"))
            try await server.createZone("Log")
            let alice = "\(base)/u/\(server.userRecordName("alice"))/private"
            let throttled = try await browser.post("\(alice)/records", [
                ("operation", "save"), ("zone", "Log"), ("name", "entry"), ("recordType", "Note"), ("field", "text"), ("type", "STRING"),
                ("value", "hello"), ("back", "\(alice)/zone?zone=Log"),
            ])
            #expect(throttled.text.contains("THROTTLED: injected by fault rule"))
            let retried = try await browser.post("\(alice)/records", [
                ("operation", "save"), ("zone", "Log"), ("name", "entry"), ("recordType", "Note"), ("field", "text"), ("type", "STRING"),
                ("value", "hello"), ("back", "\(alice)/zone?zone=Log"),
            ])
            #expect(retried.text.contains("Record entry created."))

            let timeline = try await browser.get("\(base)/timeline")
            #expect(timeline.text.contains("fault") && timeline.text.contains("THROTTLED"))
            #expect(timeline.text.contains("entry") && timeline.text.contains("stratus-console"))
            let activity = try await server.admin("activity?container=\(DevSeeder.container)", method: .get).decode(ActivityResponse.self)
            #expect(activity.entries.first?.kind == .commit && activity.entries.first?.recordNames == ["entry"])
            #expect(activity.entries.contains { $0.kind == .fault && $0.effect == "THROTTLED, retry after 2 s" && $0.endpoint == "records/modify" })
            let newer = try await browser.get("\(base)/timeline/rows?after=\(activity.latest)")
            #expect(newer.status == .ok && !newer.text.contains("<tr"))
            #expect(try await server.admin("activity?after=-1", method: .get).status == .badRequest)

            _ = try await browser.get("\(base)/schema")
            let indexed = try await browser.post("\(base)/schema", [
                ("operation", "add"), ("recordType", "Note"), ("field", "text"), ("index", "SORTABLE"), ("back", "\(base)/schema"),
            ])
            #expect(indexed.text.contains("SORTABLE index on Note.text added."))
            #expect(indexed.text.contains("QUERYABLE, SORTABLE") || indexed.text.contains("SORTABLE"))

            _ = try await browser.post("/console/sign-out", [], follow: false)
            let refused = try await browser.get("\(base)/timeline")
            #expect(refused.status == .seeOther && refused.headers[.location] == "/console")
        }
    }

    @Test("a pane's watch: a push token and database subscription of the account, whose event stream hears the owner's edit")
    func paneWatch() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trip")
            let created = try await server.modify([
                Records.create("day1"), TestServer.createShare(ShareNames.zoneWideShare, root: nil, participants: [server.invite("bob", .readWrite)]),
            ], zone: "Trip")
            _ = try await server.accept(try #require(created.last?.record?.shortGUID), as: "bob")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            let bob = server.userRecordName("bob"), alice = server.userRecordName("alice")
            let page = try await browser.get("\(base)/side-by-side?lu=\(alice)&ls=private&lz=Trip&ru=\(bob)&rs=shared&rz=Trip&ro=\(alice)")
            #expect(page.text.contains("data-pane") && page.text.contains("day1"))
            let watch = try await browser.post("\(base)/watch", [("user", bob), ("database", "shared")], follow: false)
            let events = try #require(try JSONDecoder().decode([String: String].self, from: watch.body)["events"])
            let feed = try #require(URL(string: events)?.path.replacingOccurrences(of: "/events", with: ""))
            // alice edits through her pane; bob's feed hears of it.
            _ = try await browser.post("\(base)/pane?u=\(alice)&s=private&z=Trip&o=\(alice)", [
                ("operation", "save"), ("zone", "Trip"), ("name", "day1"), ("field", "caption"), ("type", "STRING"), ("value", "edited"),
            ], follow: false)
            // The token was made before the edit: its first poll answers at once with the notification.
            let heard = try await server.client.execute(uri: feed + "?format=stratus", method: .get, headers: [:], body: nil)
            let notifications = try JSONDecoder().decode(FeedPage.self, from: heard.body).notifications
            #expect(notifications.count == 1 && notifications.first?.databaseScope == .shared, "\(heard.text)")
            let bobPane = try await browser.get("\(base)/pane?u=\(bob)&s=shared&z=Trip&o=\(alice)")
            #expect(bobPane.text.contains("edited"))
        }
    }

    @Test("the admin API lists accounts and containers")
    func adminListings() async throws {
        try await TestServer.run { server in
            let accounts = try await server.admin("accounts", method: .get).decode(AccountsResponse.self)
            #expect(accounts.accounts.map(\.email) == ["alice@example.com", "bob@example.com", "carol@example.com"])
            let containers = try await server.admin("containers", method: .get).decode(ContainersResponse.self)
            #expect(containers.containers == [DevSeeder.container])
        }
    }

    @Test("the console creates your own container with a development API token that works at once")
    func ownContainer() async throws {
        try await TestServer.run { server in
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let home = try await browser.get("/console")
            #expect(home.text.contains("Create container"))
            let bad = try await browser.post("/console/containers", [("identifier", "not a container!"), ("back", "/console")])
            #expect(bad.text.contains("not &#39;not a container!&#39;") || bad.text.contains("not 'not a container!'"), "\(bad.text)")
            let created = try await browser.post("/console/containers", [("identifier", "iCloud.com.you.App"), ("back", "/console")])
            let notice = created.text
            #expect(notice.contains("Container iCloud.com.you.App created"), "\(notice)")
            let token = try #require(notice.range(of: "(shown once): ").map { String(notice[$0.upperBound...].prefix(64)) })
            #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "\(token)")
            let listed = try await server.admin("containers", method: .get).decode(ContainersResponse.self)
            #expect(listed.containers.contains("iCloud.com.you.App"))
            // The token is the new container's: a CKWS call with it is answered.
            let zones = try await server.client.execute(
                uri: "/database/1/iCloud.com.you.App/development/public/zones/list?ckAPIToken=\(token)", method: .get, headers: [:], body: nil
            )
            #expect(zones.status == .ok, "\(zones.text)")
        }
    }

    @Test("the Data page downloads the records, resets an account or everything (asking first), and imports a download")
    func dataPage() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            _ = try await server.modify([Records.create("paris", caption: "Paris")], zone: "Trips")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let base = "/console/c/\(DevSeeder.container)/development"
            let page = try await browser.get("\(base)/data")
            #expect(page.text.contains("Download the records as JSON") && page.text.contains("data-confirm="), "destructive buttons ask first")
            let download = try await browser.get("\(base)/data/export")
            #expect(download.headers[.contentDisposition]?.hasPrefix("attachment") == true)
            let export = try download.decode(DataExport.self)
            #expect(export.databases.flatMap(\.zones).flatMap(\.records).compactMap(\.recordName) == ["paris"])

            let reset = try await browser.post("\(base)/data", [("operation", "resetAccount"), ("account", server.userRecordName("alice")), ("back", "\(base)/data")])
            #expect(reset.text.contains("Reset: 1 zones, 0 records"), "\(reset.text)")
            #expect(try await server.lookup(["paris"], zone: "Trips").first?.error?.serverErrorCode == .zoneNotFound)
            let imported = try await browser.post("\(base)/data", [
                ("operation", "import"), ("document", download.text), ("back", "\(base)/data"),
            ])
            #expect(imported.text.contains("Imported 1 records into 1 new zones."), "\(imported.text)")
            #expect(try await server.lookup(["paris"], zone: "Trips").first?.value?.fields?["caption"] == .string("Paris"))
            let unknown = try await browser.post("\(base)/data", [("operation", "wipe"), ("back", "\(base)/data")])
            #expect(unknown.text.contains("Nothing was changed"), "an unknown operation resets nothing")
            #expect(try await server.lookup(["paris"], zone: "Trips").first?.value != nil)
            let everything = try await browser.post("\(base)/data", [("operation", "reset"), ("back", "\(base)/data")])
            #expect(everything.text.contains("Reset: 1 zones"), "\(everything.text)")
        }
    }

    @Test("side by side offers the zones there are to choose from")
    func sideBySideZonePicker() async throws {
        try await TestServer.run { server in
            try await server.createZone("Trips")
            try await server.createZone("Bobs", as: "bob")
            var browser = ConsoleBrowser(server)
            _ = try await browser.signIn()
            let page = try await browser.get("/console/c/\(DevSeeder.container)/development/side-by-side")
            let choices = page.text.components(separatedBy: "<datalist id=\"lzones\">").last?.components(separatedBy: "</datalist>").first ?? ""
            #expect(choices.contains("<option value=\"Trips\">") && choices.contains("<option value=\"Bobs\">"), "\(choices)")
            #expect(page.text.contains("list=\"rzones\""))
        }
    }

    private struct FeedPage: Decodable { var notifications: [PushNotification] }
}
