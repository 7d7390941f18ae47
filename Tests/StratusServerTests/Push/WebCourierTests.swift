import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import StratusCore
import StratusModel
import StratusServerTesting
import Testing

/// Push as CloudKit JS receives it: it registers with `POST /device/1/{container}/{environment}/tokens/create`
/// (a `text/plain` body) and then polls the `webcourierURL` it was handed exactly as given, again
/// and again, adding nothing. Each poll answers the next notification in Apple's payload, each
/// once, in order, for each of an account's devices, across a restart; with nothing new the poll
/// is held. Over a real socket.
@Suite struct WebCourierTests {
    /// What CloudKit JS's `registerForNotifications` sends; the handed-out URL's path and query.
    static func register(_ server: TestServer, as account: String) async throws -> String {
        let response = try await server.client.execute(
            uri: "/device/1/\(DevSeeder.container)/development/tokens/create?\(server.query(account))", method: .post,
            headers: [.contentType: "text/plain"], body: ByteBuffer(string: #"{"apnsEnvironment":"development"}"#)
        )
        #expect(response.status == .ok, "\(response.text)")
        let created = try response.decode(PushTokenResponse.self)
        #expect(!created.apnsToken.isEmpty)
        let url = try #require(URLComponents(string: created.webcourierURL))
        #expect(url.query == nil, "the URL needs nothing added: \(created.webcourierURL)")
        return url.path
    }

    /// One poll of `path` exactly as handed out: the record a query notification names, or `nil` for `{}`.
    static func poll(_ server: TestServer, _ path: String) async throws -> String? {
        let response = try await server.client.execute(uri: path, method: .get, headers: [:], body: nil)
        #expect(response.status == .ok, "\(response.text)")
        if response.text == "{}" { return nil }
        let payload = try response.decode(ApplePushPayload.self)
        #expect(payload.aps.contentAvailable == 1 && payload.ck.qry?.sid == "places", "\(response.text)")
        return payload.ck.qry?.rid
    }

    static func subscribe(_ server: TestServer) async throws {
        let query = Query(recordType: "Destination")
        let saved = try await server.subscribe(
            [Subscription(subscriptionID: "places", kind: .query, query: query, firesOn: [.create])], database: "public"
        )
        #expect(saved.first?.value != nil)
    }

    static func create(_ server: TestServer, _ names: [String]) async throws {
        for name in names {
            let request = ModifyRecordsRequest(operations: [RecordOperation(.create, Records.destination(name, caption: name))])
            let response = try await server.post("records/modify", request, database: "public", as: "bob", device: "bob-phone")
            #expect(response.status == .ok, "\(response.text)")
        }
    }

    @Test("each of an account's devices gets every notification once, in order, polling the URL as given")
    func eachNotificationOnceInOrderPerDevice() async throws {
        try await TestServer.run(live: true) { server in
            try await Self.subscribe(server)
            let laptop = try await Self.register(server, as: "alice")
            let browser = try await Self.register(server, as: "alice")
            #expect(laptop != browser)
            try await Self.create(server, ["faro", "porto", "lisbon"])
            for device in [laptop, browser] {
                var heard: [String] = []
                for _ in 0..<3 { heard += [try await Self.poll(server, device)].compactMap { $0 } }
                #expect(heard == ["faro", "porto", "lisbon"], "\(device)")
            }
            try await Self.create(server, ["braga"])
            #expect(try await Self.poll(server, laptop) == "braga")
            #expect(try await Self.poll(server, browser) == "braga")
        }
    }

    /// The held poll on a connection of its own, as a browser's `fetch` holds one while the page
    /// goes on (the test client's one connection writes meanwhile).
    @Test("with nothing new the poll is held, never answered with a notification it delivered, and wakes for the next")
    func aPollWithNothingNewIsHeld() async throws {
        try await TestServer.run(live: true) { server in
            try await Self.subscribe(server)
            let laptop = try await Self.register(server, as: "alice")
            try await Self.create(server, ["faro"])
            #expect(try await Self.poll(server, laptop) == "faro")

            let held = try RawConnection(port: try #require(server.client.port))
            try held.send("GET \(laptop) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
            // Nothing new: the answer's head may go out (its body streams), but no payload does.
            let early = try await held.receive(waiting: 1)
            #expect(!early.contains("\"aps\""), "nothing new: the poll is held, not answered: \(early)")
            try await Self.create(server, ["porto"])
            let answer = early + (try await held.receiveUntilClosed(waiting: 60))
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains(#""rid":"porto""#) && !answer.contains("faro"), "\(answer)")
        }
    }

    @Test("after a restart the same URL goes on from the next notification, never one it delivered")
    func acrossARestart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-courier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (credentials, laptop, browser) = try await TestServer.run(directory: directory, live: true) { server in
            try await Self.subscribe(server)
            let laptop = try await Self.register(server, as: "alice")
            let browser = try await Self.register(server, as: "alice")
            try await Self.create(server, ["faro", "porto", "lisbon"])
            #expect(try await Self.poll(server, laptop) == "faro")
            #expect(try await Self.poll(server, laptop) == "porto")
            return (server.credentials, laptop, browser)
        }
        try await TestServer.run(directory: directory, previous: credentials, live: true) { server in
            #expect(try await Self.poll(server, laptop) == "lisbon")
            var heard: [String] = []
            for _ in 0..<3 { heard += [try await Self.poll(server, browser)].compactMap { $0 } }
            #expect(heard == ["faro", "porto", "lisbon"])
            try await Self.create(server, ["braga"])
            #expect(try await Self.poll(server, laptop) == "braga")
        }
    }

    @Test("the documented /database/1/…/tokens/create hands an Apple client the same URL, a Stratus device its feed's; the feed consumes nothing")
    func documentedPathAndTheFeed() async throws {
        try await TestServer.run { server in
            try await Self.subscribe(server)
            let plain = try await server.client.execute(
                uri: "\(TestServer.base)/tokens/create?\(server.query("alice"))", method: .post, headers: [.contentType: "text/plain"],
                body: ByteBuffer(string: #"{"apnsEnvironment":"development"}"#)
            )
            #expect(try URLComponents(string: plain.decode(PushTokenResponse.self).webcourierURL)?.query == nil, "\(plain.text)")
            let device = try await server.post("tokens/create", PushTokenRequest(), as: "alice", device: "alice-web")
            #expect(try URLComponents(string: device.decode(PushTokenResponse.self).webcourierURL)?.query == "format=stratus", "\(device.text)")
            let listener = try await server.listener("alice", device: "alice-web")
            try await Self.create(server, ["faro"])
            let page = try await server.client.execute(uri: "\(listener.path)?format=stratus&timeout=5", method: .get, headers: [:], body: nil)
            #expect(try page.decode(NotificationFeed.self).notifications.map(\.recordName) == ["faro"], "\(page.text)")
            // The feed replays from a cursor and consumes nothing: the URL as given still answers it once.
            #expect(try await Self.poll(server, listener.path) == "faro")
            let empty = try await server.client.execute(uri: "\(listener.path)?timeout=0", method: .get, headers: [:], body: nil)
            #expect(empty.text == "{}")
        }
    }
}
