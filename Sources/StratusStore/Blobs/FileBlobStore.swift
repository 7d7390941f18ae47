import Crypto
import Foundation
import NIOCore
import StratusModel
import _NIOFileSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blobs as files under a directory: `sha256/ab/abcdef…` (the first two hex digits fan the
/// files out) and `staging/` for uploads in flight. Writes go through SwiftNIO's file system
/// (its thread pool), so streaming an upload never blocks a request's executor.
public struct FileBlobStore: BlobStore {
    public let directory: URL
    private var blobsDirectory: URL { directory.appendingPathComponent("sha256", isDirectory: true) }
    private var stagingDirectory: URL { directory.appendingPathComponent("staging", isDirectory: true) }

    /// A store in `directory`, created if needed.
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("sha256"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("staging"), withIntermediateDirectories: true)
    }

    /// A store in a fresh temporary directory (tests, and servers built without a data directory).
    public static func temporary() throws -> FileBlobStore {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stratus-blobs-\(UUID().uuidString)", isDirectory: true)
        return try FileBlobStore(directory: url)
    }

    public func stage<Bytes: AsyncSequence>(_ bytes: Bytes, limit: Int64, deadline: ContinuousClock.Instant) async throws(BlobStagingError)
        -> StagedBlob where Bytes.Element == ByteBuffer
    {
        let path = stagingDirectory.appendingPathComponent(UUID().uuidString).path
        var hasher = SHA256()
        var size: Int64 = 0
        do {
            try await FileSystem.shared.withFileHandle(forWritingAt: FilePath(path), options: .newFile(replaceExisting: false)) { handle in
                try await handle.withBufferedWriter(capacity: .kibibytes(256)) { writer in
                    for try await part in bytes {
                        size += Int64(part.readableBytes)
                        guard size <= limit else { throw BlobStagingError.tooLarge(limit: limit) }
                        guard ContinuousClock.now < deadline else { throw BlobStagingError.tooSlow }
                        part.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
                        try await writer.write(contentsOf: part)
                    }
                }
                // Durable before anything refers to it.
                try await handle.synchronize()
            }
        } catch {
            unlink(path)
            if let staging = error as? BlobStagingError { throw staging }
            throw .failed("\(error)")
        }
        return StagedBlob(path: path, checksum: Hex.encode(hasher.finalize()), size: size)
    }

    public func place(_ staged: StagedBlob) throws {
        let target = path(of: staged.checksum)
        let folder = (target as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        // rename(2) replaces atomically: the same checksum is the same bytes.
        guard rename(staged.path, target) == 0 else {
            throw BlobStagingError.failed("cannot move \(staged.path) into place: errno \(errno)")
        }
    }

    public func discard(_ staged: StagedBlob) {
        unlink(staged.path)
    }

    public func path(of checksum: String) -> String {
        blobsDirectory.appendingPathComponent(String(checksum.prefix(2)), isDirectory: true).appendingPathComponent(checksum).path
    }

    public func remove(_ checksum: String) throws {
        guard unlink(path(of: checksum)) == 0 || errno == ENOENT else {
            throw BlobStagingError.failed("cannot remove blob \(checksum): errno \(errno)")
        }
    }

    public func storedBlobs() throws -> [(checksum: String, modified: Double)] {
        let manager = FileManager.default
        var found: [(checksum: String, modified: Double)] = []
        for folder in try manager.contentsOfDirectory(atPath: blobsDirectory.path) {
            let folderPath = blobsDirectory.appendingPathComponent(folder).path
            for name in (try? manager.contentsOfDirectory(atPath: folderPath)) ?? [] {
                let attributes = try? manager.attributesOfItem(atPath: folderPath + "/" + name)
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                found.append((name, modified))
            }
        }
        return found
    }

    public func sweepStaging(olderThan seconds: Double) throws -> Int {
        let manager = FileManager.default
        let cutoff = Date().timeIntervalSince1970 - seconds
        var removed = 0
        for name in try manager.contentsOfDirectory(atPath: stagingDirectory.path) {
            let path = stagingDirectory.appendingPathComponent(name).path
            let modified = ((try? manager.attributesOfItem(atPath: path))?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if modified <= cutoff, unlink(path) == 0 { removed += 1 }
        }
        return removed
    }
}
