import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore: AssetStore {
    /// Blobs a collection transaction looks at: small, so the writer is never held long.
    static let collectionPage = 32

    public func assetSigningKey() async throws(StoreError) -> [UInt8] {
        try await write { db in
            if let key = try Data.fetchOne(db, sql: "SELECT value FROM store_secrets WHERE name = 'asset-signing'") {
                return [UInt8](key)
            }
            var generator = SystemRandomNumberGenerator()
            let key = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            try db.execute(sql: "INSERT INTO store_secrets (name, value) VALUES ('asset-signing', ?)", arguments: [Data(key)])
            return key
        }
    }

    public func uploadExists(_ uploadID: String) async throws(StoreError) -> Bool {
        try await read { db in
            try Bool.fetchOne(db, sql: "SELECT 1 FROM asset_uploads WHERE upload_id = ?", arguments: [uploadID]) ?? false
        }
    }

    public func recordUpload(_ upload: AssetUpload, place: @escaping @Sendable () throws -> Void) async throws(StoreError) {
        try await write { db in
            try db.execute(
                sql: """
                    INSERT INTO asset_uploads (upload_id, container, environment, owner, checksum, size, created_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    upload.uploadID, upload.container, upload.environment.rawValue, upload.owner, upload.checksum, upload.size,
                    upload.createdAt,
                ]
            )
            // Stored (again) now: young for collection whatever it was before.
            try db.execute(
                sql: """
                    INSERT INTO blobs (checksum, size, stored_at) VALUES (?, ?, ?)
                    ON CONFLICT (checksum) DO UPDATE SET stored_at = excluded.stored_at, unreferenced_since = NULL
                    """,
                arguments: [upload.checksum, upload.size, upload.createdAt]
            )
            try place()
        }
    }

    public func blobSize(_ checksum: String) async throws(StoreError) -> Int64? {
        try await read { db in try Int64.fetchOne(db, sql: "SELECT size FROM blobs WHERE checksum = ?", arguments: [checksum]) }
    }

    public func registeredBlobs() async throws(StoreError) -> Set<String> {
        try await read { db in try Set(String.fetchAll(db, sql: "SELECT checksum FROM blobs")) }
    }

    public func collectBlobs(
        unreferencedSince cutoff: Int64, now: Int64, uploadsBefore: Int64, remove: @escaping @Sendable (String) throws -> Void
    ) async throws(StoreError) -> BlobCollection {
        while try await write({ db in
            try db.execute(
                sql: """
                    DELETE FROM asset_uploads WHERE upload_id IN
                        (SELECT upload_id FROM asset_uploads WHERE created_at < ? LIMIT 500)
                    """,
                arguments: [uploadsBefore]
            )
            return db.changesCount
        }) > 0 {}
        var removed = 0
        var after = ""
        while true {
            let start = after
            // A page of unreferenced blobs, read beside the writer.
            let page = try await read { db in
                try String.fetchAll(
                    db,
                    sql: """
                        SELECT checksum FROM blobs b
                        WHERE checksum > ? AND NOT EXISTS (SELECT 1 FROM record_assets r WHERE r.checksum = b.checksum)
                        ORDER BY checksum LIMIT ?
                        """,
                    arguments: [start, SQLiteStore.collectionPage]
                )
            }
            guard let last = page.last else { break }
            after = last
            removed += try await write { db in
                var count = 0
                for checksum in page {
                    // Checked again in the writer: a record may have claimed it since.
                    let referenced = try Bool.fetchOne(
                        db, sql: "SELECT 1 FROM record_assets WHERE checksum = ? LIMIT 1", arguments: [checksum]
                    ) ?? false
                    guard !referenced,
                        let row = try Row.fetchOne(
                            db, sql: "SELECT stored_at, unreferenced_since FROM blobs WHERE checksum = ?", arguments: [checksum]
                        )
                    else { continue }
                    let storedAt: Int64 = row[0]
                    let unreferencedSince: Int64 = row[1] ?? now
                    if row[1] as Int64? == nil {
                        try db.execute(sql: "UPDATE blobs SET unreferenced_since = ? WHERE checksum = ?", arguments: [now, checksum])
                    }
                    guard max(storedAt, unreferencedSince) <= cutoff else { continue }
                    try db.execute(sql: "DELETE FROM blobs WHERE checksum = ?", arguments: [checksum])
                    try remove(checksum)
                    count += 1
                }
                return count
            }
        }
        let kept = try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM blobs") ?? 0 }
        return BlobCollection(removed: removed, kept: kept)
    }

    public func removeUnregisteredBlob(_ checksum: String, remove: @escaping @Sendable (String) throws -> Void) async throws(StoreError) -> Bool {
        try await write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM blobs WHERE checksum = ?", arguments: [checksum]) != true else { return false }
            try remove(checksum)
            return true
        }
    }
}
