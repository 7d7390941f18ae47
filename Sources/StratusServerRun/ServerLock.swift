import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The claim one `stratus serve` holds on an SQLite data directory for as long as it runs: an
/// exclusive `flock` on `<data>/server.lock`, released by the kernel when the process ends (a
/// crash included), and `<data>/server.json` saying who holds it (PID and URL). A second server
/// on the same directory fails to take it and names the running one instead of writing to the
/// same files. Instances on PostgreSQL share a data directory by design and take no claim.
package struct ServerLock {
    /// Who holds the claim, as `server.json` records it.
    package struct Holder: Codable, Sendable {
        package var pid: Int32
        package var url: String?
    }

    /// Who `directory`'s `server.json` says holds (or last held) the claim.
    package static func holder(of directory: URL) -> Holder? {
        (try? Data(contentsOf: directory.appendingPathComponent("server.json"))).flatMap { try? JSONDecoder().decode(Holder.self, from: $0) }
    }

    /// Why the claim could not be taken.
    package struct Taken: Error, CustomStringConvertible {
        package var directory: String
        package var holder: Holder?
        package var description: String {
            let who = holder.map { "PID \($0.pid)\($0.url.map { ", \($0)" } ?? "")" } ?? "another process"
            return "another stratus server (\(who)) is running on the data directory \(directory); stop it, or give this one another --data"
        }
    }

    /// Never closed: the claim lasts until the process ends, when the kernel lets it go.
    private let descriptor: Int32
    private let holderURL: URL

    /// Takes the claim on `directory`, or throws ``Taken`` naming the server that holds it.
    package init(directory: URL) throws {
        let lockPath = directory.appendingPathComponent("server.lock").path
        let holderURL = directory.appendingPathComponent("server.json")
        let descriptor = open(lockPath, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: lockPath]) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            let holder = Self.holder(of: directory)
            throw Taken(directory: directory.path, holder: holder)
        }
        self.descriptor = descriptor
        self.holderURL = holderURL
        try record(url: nil)
    }

    /// Says who holds the claim, with the URL once the server is ready: bound, and (with
    /// `--dev`) seeded. ``ServerProcess`` waits for this line of its child's.
    package func record(url: String?) throws {
        let holder = Holder(pid: getpid(), url: url)
        try JSONEncoder().encode(holder).write(to: holderURL, options: .atomic)
    }
}
