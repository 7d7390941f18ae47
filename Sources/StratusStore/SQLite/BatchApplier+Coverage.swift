import GRDB
import StratusModel

/// A record that changed parent in a batch.
struct ParentMove {
    var name: String
    var from: String?
    var to: String?
}

/// What hierarchy shares cover follows `parent`: a record moved under a shared root enters the
/// share with its whole subtree, one moved out leaves it. Each change is kept in `share_coverage`
/// (share, record, sequence), so a participant's feed carries the records that entered since their
/// token and tombstones for those that left, without re-stamping (or re-tagging) the records.
extension BatchApplier {
    func recordCoverageChanges(_ moves: [ParentMove], zoneID: Int64, seq: inout Int64) throws {
        let roots = try Dictionary(
            Row.fetchAll(
                db.cachedStatement(sql: "SELECT root_name, record_name FROM shares WHERE zone_id = ? AND root_name IS NOT NULL"),
                arguments: [zoneID]
            ).map { row -> (String, String) in (row[0], row[1]) },
            uniquingKeysWith: { first, _ in first }
        )
        guard !roots.isEmpty else { return }
        for move in moves {
            let before = try shares(above: move.from, roots: roots, zoneID: zoneID)
            let after = try shares(above: move.to, roots: roots, zoneID: zoneID)
            let changed = before.symmetricDifference(after)
            guard !changed.isEmpty else { continue }
            seq += 1
            let subtree = try String.fetchAll(
                db.cachedStatement(
                    sql: """
                        WITH RECURSIVE tree(name) AS (
                            SELECT ? UNION SELECT r.record_name FROM records r JOIN tree t ON r.zone_id = ? AND r.parent_name = t.name
                        )
                        SELECT name FROM tree
                        """
                ),
                arguments: [move.name, zoneID]
            )
            for share in changed.sorted() {
                for name in subtree {
                    try db.cachedStatement(
                        sql: "INSERT OR REPLACE INTO share_coverage (zone_id, share_name, record_name, seq) VALUES (?, ?, ?, ?)"
                    ).execute(arguments: [zoneID, share, name, seq])
                }
            }
        }
    }

    /// The hierarchy shares whose root is `start` or one of its ancestors.
    private func shares(above start: String?, roots: [String: String], zoneID: Int64) throws -> Set<String> {
        var found: Set<String> = []
        var visited: Set<String> = []
        var current = start
        while let node = current, visited.insert(node).inserted, visited.count <= 10_000 {
            if let share = roots[node] { found.insert(share) }
            current = try String.fetchOne(
                db.cachedStatement(sql: "SELECT parent_name FROM records WHERE zone_id = ? AND record_name = ?"),
                arguments: [zoneID, node]
            )
        }
        return found
    }
}
