import GRDB
import StratusModel

/// The batch's parents and required references, checked against the zone as the batch would
/// leave it, whatever the order of its writes: a new parent must exist and its chain may not loop
/// back to the record, and the targets of `DELETE_SELF` and `VALIDATE` references must exist.
/// (A parent deleted later leaves its children in place, pointing at nothing, as CloudKit's
/// parent references do; re-saving such a child with the same parent is allowed.)
///
/// The work is bounded by the batch: one statement reads which targets exist, and each parent
/// chain is walked once (a record found to reach a root is not walked again).
extension BatchApplier {
    /// Why each failing write (by position) cannot be applied.
    func integrityFailures(zoneID: Int64) throws -> [Int: WriteFailure] {
        let writes = batch.writes
        guard let outline = BatchOutline(checking: writes) else { return [:] }
        let live = try liveNames(outline.targetsToLookUp, zoneID: zoneID)
        var walker = ParentWalker(db: db, zoneID: zoneID, parents: outline.parents, saved: outline.saved, deleted: outline.deleted)
        var failures: [Int: WriteFailure] = [:]
        for (position, write) in writes.enumerated() where write.action != .delete && write.action != .leave {
            if let missing = outline.missingReference(of: write, live: live) {
                failures[position] = .missingReference(missing)
            } else if let parent = write.parentName {
                if try !walker.exists(parent), try walker.storedParent(of: write.name) != parent {
                    failures[position] = .missingParent(parent)
                } else if try walker.loops(from: parent, back: write.name) {
                    failures[position] = .invalid("record '\(write.name)' would be its own ancestor: its parent chain loops back to it")
                }
            }
        }
        return failures
    }

    /// Which of `names` are live records of the zone, in one statement.
    private func liveNames(_ names: Set<String>, zoneID: Int64) throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        return try Set(String.fetchAll(
            db.cachedStatement(
                sql: "SELECT record_name FROM records WHERE zone_id = ? AND deleted = 0 AND record_name IN (SELECT value FROM json_each(?))"
            ),
            arguments: [zoneID, SQLiteStore.jsonArray(names.sorted())]
        ))
    }
}

/// Walks parent chains over the batch's parents first and the stored rows second, remembering
/// every record found to reach a root.
private struct ParentWalker {
    let db: Database
    let zoneID: Int64
    let parents: [String: String?]
    let saved: Set<String>
    let deleted: Set<String>
    private var rooted: Set<String> = []
    /// A chain longer than this is treated as a loop (no real hierarchy is this deep).
    private let maximumDepth = 10_000

    init(db: Database, zoneID: Int64, parents: [String: String?], saved: Set<String>, deleted: Set<String>) {
        self.db = db
        self.zoneID = zoneID
        self.parents = parents
        self.saved = saved
        self.deleted = deleted
    }

    /// Whether the chain starting at `start` reaches `name`.
    mutating func loops(from start: String, back name: String) throws -> Bool {
        var path: [String] = []
        var current: String? = start
        while let node = current, !rooted.contains(node) {
            if node == name || path.count > maximumDepth { return true }
            path.append(node)
            current = try parent(of: node)
        }
        rooted.formUnion(path)
        return false
    }

    /// Whether the record exists once the batch applies (saved in it, or stored and not deleted by it).
    func exists(_ node: String) throws -> Bool {
        if saved.contains(node) { return true }
        guard !deleted.contains(node) else { return false }
        return try storedRow(node) != nil
    }

    /// The parent the stored record has now (`nil` for a root or a missing record).
    func storedParent(of node: String) throws -> String? {
        try storedRow(node)?["parent_name"]
    }

    /// The node's parent once the batch applies; a record neither saved nor stored ends the chain.
    private func parent(of node: String) throws -> String? {
        if let parent = parents[node] { return parent }
        guard !deleted.contains(node) else { return nil }
        return try storedParent(of: node)
    }

    private func storedRow(_ node: String) throws -> Row? {
        try Row.fetchOne(
            db.cachedStatement(sql: "SELECT parent_name FROM records WHERE zone_id = ? AND record_name = ? AND deleted = 0"),
            arguments: [zoneID, node]
        )
    }
}
