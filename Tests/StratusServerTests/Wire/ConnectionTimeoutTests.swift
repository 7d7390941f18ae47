import Foundation
import StratusServer
import StratusServerTesting
import Testing

/// A client that stops sending, or trickles its body, cannot hold a connection: the server lets
/// go after the idle timeout or the body deadline, and keeps answering everyone else.
@Suite("hardening: stalled and slow request bodies")
struct ConnectionTimeoutTests {
    static let options = HTTPOptions(idleTimeout: .seconds(1), bodyTimeout: .seconds(2), maximumConnections: 64)
    static let head = "POST /stratus/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nContent-Type: application/json\r\n\r\n"

    @Test("connections stalled mid-body are closed after the idle timeout")
    func stalledBodies() async throws {
        try await TestServer.run(http: ConnectionTimeoutTests.options, live: true) { server in
            let port = try #require(server.client.port)
            let clock = ContinuousClock()
            let start = clock.now
            let connections = try (0..<20).map { _ in try RawConnection(port: port) }
            for connection in connections { try connection.send(ConnectionTimeoutTests.head + "{\"a\":") }
            for connection in connections {
                #expect(try await connection.waitForData(seconds: 10), "a stalled connection stayed open")
            }
            #expect(clock.now - start < .seconds(10))
            // The server still answers a new client (the test client's own connection idled out too).
            let fresh = try RawConnection(port: port)
            try fresh.send("GET /stratus/v1/health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try await fresh.receive(waiting: 5).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("a body that trickles in past the deadline is refused with BAD_REQUEST")
    func tricklingBody() async throws {
        try await TestServer.run(http: ConnectionTimeoutTests.options, live: true) { server in
            let port = try #require(server.client.port)
            let connection = try RawConnection(port: port)
            try connection.send(ConnectionTimeoutTests.head)
            let clock = ContinuousClock()
            let start = clock.now
            var answer = ""
            // One byte every 200 ms keeps the connection active: only the body deadline ends it.
            while clock.now - start < .seconds(10) {
                try? connection.send(" ")
                answer = try await connection.receive(waiting: 0.2)
                if !answer.isEmpty { break }
            }
            // Under load the answer's head and body can arrive in separate reads: take the rest.
            while !answer.isEmpty, !answer.contains("BAD_REQUEST"), clock.now - start < .seconds(10) {
                let more = (try? await connection.receive(waiting: 0.2)) ?? ""
                if more.isEmpty { break }
                answer += more
            }
            #expect(clock.now - start < .seconds(6), "the trickling body was read for \(clock.now - start)")
            #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("BAD_REQUEST"), "\(answer)")
        }
    }
}
