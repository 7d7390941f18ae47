import NIOCore

/// Bytes staged by an upload: complete, synced and checksummed, not yet in place.
public struct StagedBlob: Sendable, Hashable {
    /// The temporary file holding the bytes.
    public var path: String
    /// SHA-256 of the bytes, lowercase hex: the blob's name.
    public var checksum: String
    public var size: Int64

    public init(path: String, checksum: String, size: Int64) {
        self.path = path
        self.checksum = checksum
        self.size = size
    }
}

/// Why staging refused the bytes.
public enum BlobStagingError: Error, Sendable, Hashable {
    /// More bytes than the limit arrived; nothing was kept.
    case tooLarge(limit: Int64)
    /// The deadline passed before the last byte arrived; nothing was kept.
    case tooSlow
    /// The body ended early or the disk failed; nothing was kept.
    case failed(String)
}

/// Where asset bytes live: content-addressed blobs outside the database. Bytes are staged to a
/// temporary file while they stream in, then put in place under their checksum by one rename,
/// so a blob's file is whole or absent.
public protocol BlobStore: Sendable {
    /// Streams `bytes` to a temporary file, hashing as they arrive, refusing past `limit`
    /// bytes or `deadline`; the file is synced before this returns.
    func stage<Bytes: AsyncSequence>(_ bytes: Bytes, limit: Int64, deadline: ContinuousClock.Instant) async throws(BlobStagingError)
        -> StagedBlob where Bytes.Element == ByteBuffer
    /// Moves staged bytes into place (an existing blob of the same checksum is the same bytes).
    func place(_ staged: StagedBlob) throws
    /// Deletes staged bytes that will not be placed.
    func discard(_ staged: StagedBlob)
    /// The file of a blob.
    func path(of checksum: String) -> String
    /// Deletes a blob's file (no error if it is gone).
    func remove(_ checksum: String) throws
    /// The checksums of blob files on disk, with their last modification (seconds since 1970).
    func storedBlobs() throws -> [(checksum: String, modified: Double)]
    /// Deletes temporary files older than `seconds` (uploads a crash or kill cut short).
    func sweepStaging(olderThan seconds: Double) throws -> Int
}
