import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ports on 127.0.0.1: one nothing listens on now, and whether one answers.
package enum FreePort {
    /// A port nothing listens on now (bound once to port 0, then released: another process may
    /// take it before the caller does, so a caller that fails to bind it tries another).
    package static func pick() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ChildProcess.Failure(description: "socket() failed") }
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else { throw ChildProcess.Failure(description: "bind() failed") }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
        guard named == 0 else { throw ChildProcess.Failure(description: "getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Starts something on a port picked free, and again on another (up to `attempts` ports) when
    /// that fails: another process may take a port between its pick and the bind. An error
    /// `anotherPortMayCure` refuses ends it at once.
    package static func starting<Started>(
        attempts: Int = 5, anotherPortMayCure: (any Error) -> Bool = { _ in true }, _ start: (Int) async throws -> Started
    ) async throws -> Started {
        var failure: any Error = ChildProcess.Failure(description: "no free port could be bound")
        for _ in 0..<attempts {
            do {
                return try await start(try pick())
            } catch where anotherPortMayCure(error) {
                failure = error
            }
        }
        throw failure
    }

    /// Whether something accepts connections on `port`.
    package static func answers(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }
}
