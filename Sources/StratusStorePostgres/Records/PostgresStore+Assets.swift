import Foundation
import PostgresNIO
import StratusModel
import StratusStore

/// Asset uploads and blob bookkeeping in PostgreSQL, with the SQLite store's rules. Writes that
/// decide a blob's fate (an upload, a collection step) take the writers' lock, as zone batches
/// that claim blobs do, so a blob is never collected between a claim's check and its commit.
extension PostgresStore: AssetStore {
    /// Blobs a collection transaction looks at: small, so the writers' lock is never held long.
    static let collectionPage = 32

    public func assetSigningKey() async throws(StoreError) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        let candidate = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        // Every instance agrees: the first key stored wins, whoever made it.
        return try await write { tx in
            try await tx.execute("""
                INSERT INTO store_secrets (name, value) VALUES ('asset-signing', \(ByteBuffer(bytes: candidate)))
                ON CONFLICT (name) DO NOTHING
                """)
            let key = try await tx.first("SELECT value FROM store_secrets WHERE name = 'asset-signing'") { try $0.decode(ByteBuffer.self) }
            return key.map { Array($0.readableBytesView) } ?? candidate
        }
    }

    public func uploadExists(_ uploadID: String) async throws(StoreError) -> Bool {
        try await first(query("SELECT 1::INT FROM asset_uploads WHERE upload_id = \(uploadID)")) { _ in true } ?? false
    }

    public func recordUpload(_ upload: AssetUpload, place: @escaping @Sendable () throws -> Void) async throws(StoreError) {
        try await write { tx in
            _ = try await tx.lockSequence()
            try await tx.execute("""
                INSERT INTO asset_uploads (upload_id, container, environment, owner, checksum, size, created_at)
                VALUES (\(upload.uploadID), \(upload.container), \(upload.environment.rawValue), \(upload.owner), \(upload.checksum),
                        \(upload.size), \(upload.createdAt))
                """)
            // Stored (again) now: young for collection whatever it was before.
            try await tx.execute("""
                INSERT INTO blobs (checksum, size, stored_at) VALUES (\(upload.checksum), \(upload.size), \(upload.createdAt))
                ON CONFLICT (checksum) DO UPDATE SET stored_at = EXCLUDED.stored_at, unreferenced_since = NULL
                """)
            try place()
        }
    }

    public func blobSize(_ checksum: String) async throws(StoreError) -> Int64? {
        try await first(query("SELECT size FROM blobs WHERE checksum = \(checksum)")) { try $0.decode(Int64.self) }
    }

    public func registeredBlobs() async throws(StoreError) -> Set<String> {
        try await Set(all(query("SELECT checksum FROM blobs")) { try $0.decode(String.self) })
    }

    public func collectBlobs(
        unreferencedSince cutoff: Int64, now: Int64, uploadsBefore: Int64, remove: @escaping @Sendable (String) throws -> Void
    ) async throws(StoreError) -> BlobCollection {
        while try await write({ tx in
            try await tx.execute("""
                DELETE FROM asset_uploads WHERE upload_id IN
                    (SELECT upload_id FROM asset_uploads WHERE created_at < \(uploadsBefore) LIMIT 500)
                RETURNING 1
                """)
        }) > 0 {}
        var removed = 0
        var after = ""
        while true {
            let start = after
            // A page of unreferenced blobs, read without the lock.
            let page = try await all(query("""
                SELECT checksum FROM blobs b
                WHERE checksum > \(start) AND NOT EXISTS (SELECT 1 FROM record_assets r WHERE r.checksum = b.checksum)
                ORDER BY checksum LIMIT \(Self.collectionPage)
                """)) { try $0.decode(String.self) }
            guard let last = page.last else { break }
            after = last
            removed += try await write { tx in
                _ = try await tx.lockSequence()
                var count = 0
                for checksum in page {
                    // Checked again under the lock: a record may have claimed it since.
                    let referenced = try await tx.first(
                        "SELECT 1::INT FROM record_assets WHERE checksum = \(checksum) LIMIT 1"
                    ) { _ in true } ?? false
                    let blob = try await tx.first("SELECT stored_at, unreferenced_since FROM blobs WHERE checksum = \(checksum)") { row in
                        try row.decode((Int64, Int64?).self)
                    }
                    guard !referenced, let (storedAt, unreferenced) = blob else { continue }
                    if unreferenced == nil {
                        try await tx.execute("UPDATE blobs SET unreferenced_since = \(now) WHERE checksum = \(checksum)")
                    }
                    guard max(storedAt, unreferenced ?? now) <= cutoff else { continue }
                    try await tx.execute("DELETE FROM blobs WHERE checksum = \(checksum)")
                    try remove(checksum)
                    count += 1
                }
                return count
            }
        }
        let kept = try await first(query("SELECT count(*) FROM blobs")) { try $0.decode(Int64.self) } ?? 0
        return BlobCollection(removed: removed, kept: Int(kept))
    }

    public func removeUnregisteredBlob(_ checksum: String, remove: @escaping @Sendable (String) throws -> Void) async throws(StoreError) -> Bool {
        try await write { tx in
            _ = try await tx.lockSequence()
            guard try await tx.first("SELECT 1::INT FROM blobs WHERE checksum = \(checksum)", { _ in true }) == nil else { return false }
            try remove(checksum)
            return true
        }
    }
}
