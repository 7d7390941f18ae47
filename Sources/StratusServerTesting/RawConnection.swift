import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A TCP client socket on 127.0.0.1, for sending what no HTTP client library would. Waits poll
/// without blocking and sleep between polls, so a test never holds a thread the server needs.
package final class RawConnection {
    private let descriptor: Int32

    package init(port: Int) throws {
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

    package func send(_ text: String) throws {
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
    package func receive(waiting seconds: Double) async throws -> String {
        guard try await waitForData(seconds: seconds) else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = recv(descriptor, &buffer, buffer.count, 0)
        return count > 0 ? String(decoding: buffer.prefix(count), as: UTF8.self) : ""
    }

    /// Everything the server sends until it closes the connection (or `seconds` pass): a whole
    /// answer, however many segments it came in (`""`: closed without one).
    package func receiveUntilClosed(waiting seconds: Double) async throws -> String {
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
    package func waitForData(seconds: Double) async throws -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            var descriptors = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&descriptors, 1, 0) > 0 { return true }
            guard ContinuousClock.now < deadline else { return false }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
