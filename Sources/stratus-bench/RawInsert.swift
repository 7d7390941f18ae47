import Foundation
import GRDB

/// The storage limit of the batched write path: the same rows inserted straight into SQLite
/// (GRDB cached statements, WAL, synchronous NORMAL, one transaction per batch), no HTTP, no JSON
/// decoding, no CloudKit rules.
enum RawInsert {
    static func rowsPerSecond(rows: Int, batch: Int) throws -> Double {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("raw-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        let pool = try DatabasePool(path: path)
        try pool.write { db in
            try db.execute(sql: """
                CREATE TABLE records (
                    zone_id INTEGER NOT NULL, record_name TEXT NOT NULL, record_type TEXT NOT NULL, fields TEXT NOT NULL,
                    created_at INTEGER NOT NULL, created_by TEXT, modified_at INTEGER NOT NULL, modified_by TEXT,
                    seq INTEGER NOT NULL, deleted INTEGER NOT NULL DEFAULT 0,
                    PRIMARY KEY (zone_id, record_name)) WITHOUT ROWID;
                CREATE UNIQUE INDEX records_changes ON records (zone_id, seq);
                """)
        }
        let names = (0..<rows).map { _ in UUID().uuidString }
        let fields = (0..<rows).map { Workload.fieldsJSON(names[$0]) }
        let start = ContinuousClock.now
        var seq: Int64 = 0
        for chunk in stride(from: 0, to: rows, by: batch) {
            try pool.write { db in
                let statement = try db.cachedStatement(sql: """
                    INSERT INTO records (zone_id, record_name, record_type, fields, created_at, created_by, modified_at, modified_by, seq)
                    VALUES (1, ?, 'Destination', ?, 0, '_u', 0, '_u', ?)
                    """)
                for index in chunk..<min(chunk + batch, rows) {
                    seq += 1
                    try statement.execute(arguments: [names[index], fields[index], seq])
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        return Double(rows) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
}
