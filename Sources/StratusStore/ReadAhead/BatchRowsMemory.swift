/// What a read-ahead ``BatchRows`` has read of a zone for one batch, and the reads it refused
/// (``BatchRowsMissing``) and has not made yet: the part every read-ahead back end shares. Each
/// answer comes from memory or is noted in ``missing`` and refused; the back end reads what
/// ``missing`` names (the PostgreSQL store: one statement a kind; ``ReadAheadBatchRows``: from any
/// back end) and keeps it here before the engine runs again.
package struct BatchRowsMemory {
    /// Records by name, tombstones included; `nil` for a name read and not found.
    package var records: [String: BatchRecordRow?] = [:]
    /// The `DELETE_SELF` sources of each target.
    package var sources: [String: [String]] = [:]
    /// The children of each record.
    package var children: [String: [String]] = [:]
    /// Share rows by record name; `nil` for a share read and not found.
    package var shares: [String: ShareRow?] = [:]
    /// The zone's hierarchy shares (`true`) or its zone-wide share (`false`).
    package var sharesByKind: [Bool: [ShareRow]] = [:]
    /// Each share's participants, in order.
    package var participants: [String: [StoredParticipant]] = [:]
    /// The shares each user accepted.
    package var accepted: [String: Set<String>] = [:]
    /// Upload receipts by ID; `nil` for one read and not found.
    package var uploads: [String: UploadRow?] = [:]
    /// Whether each blob is stored.
    package var blobs: [String: Bool] = [:]
    /// Reads refused and not made yet.
    package var missing = Missing()

    /// Reads refused and not made yet, a set a kind.
    package struct Missing {
        package var records: Set<String> = []
        package var sources: Set<String> = []
        package var children: Set<String> = []
        package var shares: Set<String> = []
        package var sharesByKind: Set<Bool> = []
        package var participants: Set<String> = []
        package var accepted: Set<String> = []
        package var uploads: Set<String> = []
        package var blobs: Set<String> = []

        package init() {}

        package var isEmpty: Bool {
            records.isEmpty && sources.isEmpty && children.isEmpty && shares.isEmpty && sharesByKind.isEmpty && participants.isEmpty
                && accepted.isEmpty && uploads.isEmpty && blobs.isEmpty
        }
    }

    package init() {}

    // MARK: - Answers, as BatchRows asks for them

    package mutating func record(_ name: String) throws -> BatchRecordRow? {
        try Self.answer(name, in: records, else: &missing.records)
    }

    package mutating func referenceSources(of target: String) throws -> [String] {
        try Self.answer(target, in: sources, else: &missing.sources)
    }

    package mutating func children(of name: String) throws -> [String] {
        try Self.answer(name, in: children, else: &missing.children)
    }

    package mutating func share(named name: String) throws -> ShareRow? {
        try Self.answer(name, in: shares, else: &missing.shares)
    }

    package mutating func shares(hierarchy: Bool) throws -> [ShareRow] {
        try Self.answer(hierarchy, in: sharesByKind, else: &missing.sharesByKind)
    }

    package mutating func participants(of share: String) throws -> [StoredParticipant] {
        try Self.answer(share, in: participants, else: &missing.participants)
    }

    package mutating func sharesAccepted(by user: String) throws -> Set<String> {
        try Self.answer(user, in: accepted, else: &missing.accepted)
    }

    package mutating func upload(_ uploadID: String) throws -> UploadRow? {
        try Self.answer(uploadID, in: uploads, else: &missing.uploads)
    }

    package mutating func blobIsStored(_ checksum: String) throws -> Bool {
        try Self.answer(checksum, in: blobs, else: &missing.blobs)
    }

    /// The answer read for `key`, or the read noted in `missed` and refused.
    private static func answer<Key: Hashable, Value>(_ key: Key, in read: [Key: Value], else missed: inout Set<Key>) throws -> Value {
        if let value = read[key] { return value }
        missed.insert(key)
        throw BatchRowsMissing()
    }
}
