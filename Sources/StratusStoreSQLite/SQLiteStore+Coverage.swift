import Foundation
import GRDB
import StratusModel
import StratusStore

extension SQLiteStore {
    /// ``recordColumns`` of the table aliased `r`.
    static let qualifiedRecordColumns = recordColumns.split(separator: ",")
        .map { "r." + $0.trimmingCharacters(in: .whitespacesAndNewlines) }.joined(separator: ", ")

    /// A participant's page with what entered or left their hierarchy shares after `seq`
    /// (`share_coverage`): a record that entered comes back (at the position it entered), one
    /// that left and is not visible comes back as a tombstone. `records` is the page of visible
    /// records changed after `seq`, in order, at most `limit + 1`; so is the answer, with each
    /// entry's feed position (its change, or when it entered or left; a record's own `seq`, its
    /// change tag, is never altered).
    static func mergeCoverageChanges(
        into records: [StoredRecord], zoneID: Int64, shares: [String], visible: Set<String>, recordTypes: [String]?,
        after seq: Int64, limit: Int, in db: Database
    ) throws -> (records: [StoredRecord], positions: [Int64]) {
        let rows = try Row.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT \(qualifiedRecordColumns), c.position FROM records r
                    JOIN (
                        SELECT record_name, max(seq) AS position FROM share_coverage
                        WHERE zone_id = ? AND seq > ? AND share_name IN (SELECT value FROM json_each(?))
                        GROUP BY record_name ORDER BY position LIMIT ?
                    ) c ON r.record_name = c.record_name
                    WHERE r.zone_id = ?
                    """
            ),
            arguments: [zoneID, seq, jsonArray(shares), limit + 1, zoneID]
        )
        let coverage = try rows.map { row in (record: try SQLiteStore.record(from: row), position: row[14] as Int64) }
        return CoverageMerge.merge(records, coverage: coverage, visible: visible, recordTypes: recordTypes, limit: limit)
    }
}
