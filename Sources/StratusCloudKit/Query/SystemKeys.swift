import StratusModel

/// The keys a predicate or sort descriptor may name, and what each is on the wire.
///
/// CKRecord's metadata keys (`recordID`, `creationDate`, …) become a `systemFieldName` with the
/// index names of Apple's schema files, which Stratus's query translation accepts; any other key is
/// a `fieldName` and must follow CloudKit's key rule: a letter, then letters, digits or
/// underscores — no `.`, since a key can't reach into a related record.
enum SystemKeys {
    /// Where a key points on the wire.
    enum Target: Sendable, Hashable {
        /// A field of the record: `fieldName`.
        case field(String)
        /// A metadata field: `systemFieldName`.
        case system(String)
    }

    /// CKRecord metadata key → the server's system field name.
    ///
    /// `parent` and `share` are CloudKit's spellings; Stratus answers them with `BAD_REQUEST`
    /// until it indexes them, which CKQuery reports as `invalidArguments` like any refused query.
    static let systemFieldNames: [String: String] = [
        "recordID": "___recordID",
        "creationDate": "___createTime",
        "modificationDate": "___modTime",
        "creatorUserRecordID": "___createdBy",
        "lastModifiedUserRecordID": "___modifiedBy",
        "parent": "___parent",
        "share": "___share",
    ]

    /// The wire's system field names (what `CKRecord.SystemFieldKey` spells).
    static let systemNames = Set(systemFieldNames.values)

    /// CKRecord properties that no query can name.
    static let unqueryableKeys: Set<String> = ["recordType", "recordChangeTag"]

    /// Where `key` points.
    /// - Throws: ``PredicateError`` for a key path, an unqueryable metadata key or a malformed key.
    static func target(for key: String) throws(PredicateError) -> Target {
        if let system = systemFieldNames[key] { return .system(system) }
        // `CKRecord.SystemFieldKey`'s values are the wire names themselves.
        if systemNames.contains(key) { return .system(key) }
        if unqueryableKeys.contains(key) {
            throw PredicateError("CloudKit can't query or sort by '\(key)'")
        }
        guard isValidKeyName(key) else {
            if key.contains(".") {
                throw PredicateError("key paths such as '\(key)' aren't supported: a CloudKit key names a field of the record itself")
            }
            throw PredicateError("'\(key)' isn't a CloudKit key: a key is a letter followed by letters, digits or underscores")
        }
        return .field(key)
    }

    /// Whether `key` follows CloudKit's key rule (`[A-Za-z][A-Za-z0-9_]*`).
    static func isValidKeyName(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first, isASCIILetter(first) else { return false }
        return key.unicodeScalars.allSatisfy { isASCIILetter($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
}
