import Foundation
import StratusServer
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A client that stops sending, or trickles its body, cannot hold a connection: the server lets
/// go after the idle timeout or the body deadline, and keeps answering everyone else.
@Suite("hardening: stalled and slow request bodies")
struct ConnectionTimeoutTests {
    static let options = HTTPOptions(idleTimeout: .seconds(1), bodyTimeout: .seconds(2), maximumConnections: 64)
    static let head = "POST /stratus/v1/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\nContent-Type: application/json\r\n\r\n"

    @Test("connections stalled mid-body are closed after the idle timeout")
    func stalledBodies() async throws {
        try await TestServer.run(http: ConnectionTimeoutTests.options) { server in
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
        try await TestServer.run(http: ConnectionTimeoutTests.options) { server in
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

/// A TCP client socket on 127.0.0.1, for sending what no HTTP client library would. Waits poll
/// without blocking and sleep between polls, so a test never holds a thread the server needs.
final class RawConnection {
    private let descriptor: Int32

    init(port: Int) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard descriptor >= 0, result == 0 else { throw TestFailure("cannot connect to port \(port)") }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        let sent = bytes.withUnsafeBytes { buffer in
            #if canImport(Glibc)
            Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
            #else
            Darwin.send(descriptor, buffer.baseAddress, buffer.count, 0)
            #endif
        }
        guard sent == bytes.count else { throw TestFailure("send failed") }
    }

    /// What arrives within `seconds` ("" when nothing does or the server closed).
    func receive(waiting seconds: Double) async throws -> String {
        guard try await waitForData(seconds: seconds) else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    /// Everything the server sends until it closes the connection (or `seconds` pass): a whole
    /// answer, however many segments it came in (`""`: closed without one).
    func receiveUntilClosed(waiting seconds: Double) async throws -> String {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            guard try await waitForData(seconds: max(0, Double((deadline - ContinuousClock.now).components.seconds) + 0.05)) else { break }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count <= 0 { break }
            received += buffer.prefix(count)
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Whether the server answered or closed the connection within `seconds`.
    func waitForData(seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptors, 1, 0) > 0 { return true }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
