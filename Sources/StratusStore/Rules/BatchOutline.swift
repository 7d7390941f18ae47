import StratusModel

/// What a zone batch leaves behind, by record name, for the integrity checks both stores run
/// before writing: which records it saves, which it deletes, and the parent each saved record
/// will have, whatever the order of its writes.
package struct BatchOutline {
    package private(set) var saved: Set<String> = []
    package private(set) var deleted: Set<String> = []
    /// The parent each record of the batch will have; `.some(nil)` is a root.
    package private(set) var parents: [String: String?] = [:]
    /// The targets of required references the batch does not save itself: the store looks these up.
    package let targetsToLookUp: Set<String>

    /// The outline of `writes`, or `nil` when no write has a parent or a required reference to check.
    package init?(checking writes: [RecordWrite]) {
        let needsCheck = writes.contains { $0.action != .delete && $0.action != .leave && ($0.parentName != nil || !$0.requiredTargets.isEmpty) }
        guard needsCheck else { return nil }
        for write in writes where write.action != .leave {
            if write.action == .delete {
                deleted.insert(write.name)
                saved.remove(write.name)
                parents.removeValue(forKey: write.name)
                continue
            }
            saved.insert(write.name)
            deleted.remove(write.name)
            switch write.action {
            case .save(replace: false):
                if write.clearsParent {
                    parents[write.name] = .some(nil)
                } else if let parent = write.parentName {
                    parents[write.name] = .some(parent)
                }
            default: parents[write.name] = .some(write.parentName)
            }
        }
        targetsToLookUp = Set(writes.flatMap(\.requiredTargets)).subtracting(saved)
    }

    /// The first required target of `write` that will not exist once the batch is applied, given
    /// which of ``targetsToLookUp`` are live records now.
    package func missingReference(of write: RecordWrite, live: Set<String>) -> String? {
        write.requiredTargets.sorted().first { !saved.contains($0) && (!live.contains($0) || deleted.contains($0)) }
    }
}
