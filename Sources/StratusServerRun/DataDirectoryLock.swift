import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock on `<data>/.lock` (`flock`), held while an instance seeds or reads the
/// credentials it shares with other instances on the same data directory, so two instances
/// starting together do not both seed: the second finds what the first wrote.
package struct DataDirectoryLock {
    package let path: String

    package init(directory: URL) {
        self.path = directory.appendingPathComponent(".lock").path
    }

    /// Runs `body` holding the lock (waiting for another instance to let go).
    package func holding<T>(_ body: () async throws -> T) async throws -> T {
        let descriptor = open(path, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(descriptor) }
        // flock blocks its thread: wait on a thread of our own, not the concurrency pool's.
        let locked = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: flock(descriptor, LOCK_EX) == 0) }
        }
        guard locked else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path]) }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}
