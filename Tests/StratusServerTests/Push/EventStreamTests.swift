import Foundation
import StratusModel
import StratusServerTesting
import Testing

/// The feed as server-sent events: one open connection, one event per notification, resumable.
@Suite struct EventStreamTests {
    @Test func notificationsArriveAsEventsAndResumeFromLastEventID() async throws {
        try await TestServer.run(live: true) { server in
            try await server.createZone("Trips")
            _ = try await server.subscribe([Subscription(subscriptionID: "db", kind: .database)])
            let ipad = try await server.listener("alice", device: "ipad")
            let port = try #require(server.client.port)
            let stream = try RawConnection(port: port)
            try stream.send("GET \(ipad.path)/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let head = try await stream.receive(waiting: 5)
            #expect(head.hasPrefix("HTTP/1.1 200"), "\(head)")
            #expect(head.lowercased().contains("content-type: text/event-stream"))

            try await server.write("paris", caption: "Paris", device: "iphone")
            var text = ""
            let deadline = ContinuousClock.now + .seconds(5)
            while !text.contains("event: notification"), ContinuousClock.now < deadline {
                text += try await stream.receive(waiting: 0.5)
            }
            #expect(text.contains("event: notification"), "\(text)")
            let id = try #require(text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) })
            let data = try #require(text.split(whereSeparator: \.isNewline).first { $0.hasPrefix("data: ") }.map { $0.dropFirst(6) })
            let notification = try JSONDecoder().decode(PushNotification.self, from: Data(data.utf8))
            #expect(notification.subscriptionID == "db")
            #expect(notification.notificationID == id)

            // A second write while no stream is open: a new stream from Last-Event-ID gets only it.
            try await server.write("rome", caption: "Rome", device: "iphone")
            try await Task.sleep(for: .milliseconds(300))
            let resumed = try RawConnection(port: port)
            try resumed.send("GET \(ipad.path)/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: \(id)\r\n\r\n")
            var again = ""
            let until = ContinuousClock.now + .seconds(5)
            while !again.contains("event: notification"), ContinuousClock.now < until {
                again += try await resumed.receive(waiting: 0.5)
            }
            let ids = again.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("id: ") }.map { String($0.dropFirst(4)) }
            #expect(ids.count == 1 && ids.first != id, "\(again)")
        }
    }
}
