/// A container's schema as the CloudKit Schema Language writes it: the `.ckdb` text that
/// `xcrun cktool export-schema` writes and `import-schema` reads.
///
/// A plain value: ``SchemaParser/parse(_:)`` reads one from text, ``SchemaWriter/write(_:)``
/// writes it back in Apple's export layout, and the two agree — for any document the parser
/// accepts, `SchemaParser.parse(SchemaWriter.write(document)) == document`. Order is kept as
/// written (roles, record types, fields, grants), so an imported file exports as it came in.
///
/// ```swift
/// let document = try SchemaParser.parse("""
///     DEFINE SCHEMA
///         RECORD TYPE Note (
///             "___recordID" REFERENCE QUERYABLE,
///             title         STRING QUERYABLE SEARCHABLE SORTABLE,
///             GRANT READ TO "_world"
///         );
///     """)
/// document.recordType(named: "Note")?.field(named: "title")?.isSearchable  // true
/// ```
///
/// ## Topics
/// - ``SchemaRecordType``, ``SchemaFieldDefinition``, ``SchemaFieldType``, ``SchemaGrant``
/// - ``SchemaParser``, ``SchemaWriter``, ``SchemaParseError``
public struct SchemaDocument: Sendable, Hashable {
    /// The roles made with `CREATE ROLE`, in the order written (built-in roles are not listed).
    public var roles: [String]
    /// The record types, in the order written.
    public var recordTypes: [SchemaRecordType]

    /// A document with these roles and record types (none by default: `DEFINE SCHEMA` alone).
    public init(roles: [String] = [], recordTypes: [SchemaRecordType] = []) {
        self.roles = roles
        self.recordTypes = recordTypes
    }

    /// The record type named `name` (names are case-sensitive), or `nil`.
    public func recordType(named name: String) -> SchemaRecordType? {
        recordTypes.first { $0.name == name }
    }

    /// Whether `a` sorts before `b` by the bytes of their UTF-8: the order of Apple's exports
    /// (record types, and fields within one: `CD_name` before `"___createTime"` before `title`).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}
