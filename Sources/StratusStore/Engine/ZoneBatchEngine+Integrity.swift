import StratusModel

/// The batch's parents and required references, checked against the zone as the batch would
/// leave it, whatever the order of its writes: a new parent must exist and its chain may not loop
/// back to the record, and the targets of `DELETE_SELF` and `VALIDATE` references must exist.
/// (A parent deleted later leaves its children in place, pointing at nothing, as CloudKit's
/// parent references do; re-saving such a child with the same parent is allowed.) Each parent
/// chain is walked once: a record found to reach a root is not walked again.
extension ZoneBatchEngine {
    /// Why each failing write (by position) cannot be applied.
    func integrityFailures() throws -> [Int: WriteFailure] {
        let writes = batch.writes
        guard let outline = BatchOutline(checking: writes) else { return [:] }
        let live = try Set(outline.targetsToLookUp.filter { try storedLive($0) != nil })
        var walker = ParentWalker(outline: outline)
        var failures: [Int: WriteFailure] = [:]
        for (position, write) in writes.enumerated() where write.action != .delete && write.action != .leave {
            if let missing = outline.missingReference(of: write, live: live) {
                failures[position] = .missingReference(missing)
            } else if let parent = write.parentName {
                if try !walker.exists(parent, stored: storedLive), try storedLive(write.name)?.parentName != parent {
                    failures[position] = .missingParent(parent)
                } else if try walker.loops(from: parent, back: write.name, stored: storedLive) {
                    failures[position] = .invalid("record '\(write.name)' would be its own ancestor: its parent chain loops back to it")
                }
            }
        }
        return failures
    }

    /// The live record as stored before the batch.
    private func storedLive(_ name: String) throws -> StoredRecord? {
        guard let row = try rows.record(name), !row.record.deleted else { return nil }
        return row.record
    }
}

/// Walks parent chains over the batch's parents first and the stored rows second, remembering
/// every record found to reach a root.
private struct ParentWalker {
    let outline: BatchOutline
    private var rooted: Set<String> = []
    /// A chain longer than this is treated as a loop (no real hierarchy is this deep).
    private let maximumDepth = 10_000

    init(outline: BatchOutline) {
        self.outline = outline
    }

    typealias Stored = (String) throws -> StoredRecord?

    /// Whether the chain starting at `start` reaches `name`.
    mutating func loops(from start: String, back name: String, stored: Stored) throws -> Bool {
        var path: [String] = []
        var current: String? = start
        while let node = current, !rooted.contains(node) {
            if node == name || path.count > maximumDepth { return true }
            path.append(node)
            current = try parent(of: node, stored: stored)
        }
        rooted.formUnion(path)
        return false
    }

    /// Whether the record exists once the batch applies (saved in it, or stored and not deleted by it).
    func exists(_ node: String, stored: Stored) throws -> Bool {
        if outline.saved.contains(node) { return true }
        guard !outline.deleted.contains(node) else { return false }
        return try stored(node) != nil
    }

    /// The node's parent once the batch applies; a record neither saved nor stored ends the chain.
    private func parent(of node: String, stored: Stored) throws -> String? {
        if let parent = outline.parents[node] { return parent }
        guard !outline.deleted.contains(node) else { return nil }
        return try stored(node)?.parentName
    }
}
