import PostgresNIO
import StratusModel
import StratusStore

/// The batch's parents and required references, checked against the zone as the batch would
/// leave it (the SQLite store's rules): a new parent must exist and its chain may not loop back
/// to the record; the targets of `DELETE_SELF` and `VALIDATE` references must exist. One
/// statement reads which targets exist; each parent chain is walked once.
extension PostgresBatchApplier {
    /// Why each failing write (by position) cannot be applied.
    func integrityFailures(zoneID: Int64) async throws -> [Int: WriteFailure] {
        let writes = batch.writes
        guard let outline = BatchOutline(checking: writes) else { return [:] }
        let live = try await liveNames(outline.targetsToLookUp, zoneID: zoneID)
        var walker = PostgresParentWalker(tx: tx, zoneID: zoneID, parents: outline.parents, saved: outline.saved, deleted: outline.deleted)
        var failures: [Int: WriteFailure] = [:]
        for (position, write) in writes.enumerated() where write.action != .delete && write.action != .leave {
            if let missing = outline.missingReference(of: write, live: live) {
                failures[position] = .missingReference(missing)
            } else if let parent = write.parentName {
                if try await !walker.exists(parent), try await walker.storedParent(of: write.name) != parent {
                    failures[position] = .missingParent(parent)
                } else if try await walker.loops(from: parent, back: write.name) {
                    failures[position] = .invalid("record '\(write.name)' would be its own ancestor: its parent chain loops back to it")
                }
            }
        }
        return failures
    }

    /// Which of `names` are live records of the zone, in one statement.
    private func liveNames(_ names: Set<String>, zoneID: Int64) async throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        return try await Set(tx.all(
            "SELECT record_name FROM records WHERE zone_id = \(zoneID) AND NOT deleted AND record_name = ANY(\(names.sorted()))"
        ) { try $0.decode(String.self) })
    }
}

/// Walks parent chains over the batch's parents first and the stored rows second, remembering
/// every record found to reach a root.
private struct PostgresParentWalker {
    let tx: PostgresTransaction
    let zoneID: Int64
    let parents: [String: String?]
    let saved: Set<String>
    let deleted: Set<String>
    private var rooted: Set<String> = []
    /// A chain longer than this is treated as a loop (no real hierarchy is this deep).
    private let maximumDepth = 10_000

    init(tx: PostgresTransaction, zoneID: Int64, parents: [String: String?], saved: Set<String>, deleted: Set<String>) {
        self.tx = tx
        self.zoneID = zoneID
        self.parents = parents
        self.saved = saved
        self.deleted = deleted
    }

    /// Whether the chain starting at `start` reaches `name`.
    mutating func loops(from start: String, back name: String) async throws -> Bool {
        var path: [String] = []
        var current: String? = start
        while let node = current, !rooted.contains(node) {
            if node == name || path.count > maximumDepth { return true }
            path.append(node)
            current = try await parent(of: node)
        }
        rooted.formUnion(path)
        return false
    }

    /// Whether the record exists once the batch applies.
    func exists(_ node: String) async throws -> Bool {
        if saved.contains(node) { return true }
        guard !deleted.contains(node) else { return false }
        return try await storedRow(node) != nil
    }

    /// The parent the stored record has now (`nil` for a root or a missing record).
    func storedParent(of node: String) async throws -> String? {
        try await storedRow(node) ?? nil
    }

    private func parent(of node: String) async throws -> String? {
        if let parent = parents[node] { return parent }
        guard !deleted.contains(node) else { return nil }
        return try await storedParent(of: node)
    }

    /// `nil` when no live row; `.some(parent)` otherwise.
    private func storedRow(_ node: String) async throws -> String?? {
        try await tx.first(
            "SELECT parent_name FROM records WHERE zone_id = \(zoneID) AND record_name = \(node) AND NOT deleted"
        ) { try $0.decode(String?.self) }
    }
}
