import StratusModel

/// One field line of a record type: `name TYPE [QUERYABLE] [SEARCHABLE] [SORTABLE]`.
///
/// System fields are named as schema files name them, three underscores first
/// (``systemFields``), without the quotes the files put around them.
public struct SchemaFieldDefinition: Sendable, Hashable {
    /// The field's name (case-sensitive), e.g. `title` or `___recordID`.
    public var name: String
    /// The field's type.
    public var type: SchemaFieldType
    /// `QUERYABLE`: filters (equality, ranges, `IN`, `BEGINS_WITH`, list comparators, `NEAR`).
    public var isQueryable: Bool
    /// `SORTABLE`: sorting.
    public var isSortable: Bool
    /// `SEARCHABLE`: token searches (`STRING` and `LIST<STRING>` only).
    public var isSearchable: Bool

    /// A field with the indexes flagged (none by default).
    public init(name: String, type: SchemaFieldType, isQueryable: Bool = false, isSortable: Bool = false, isSearchable: Bool = false) {
        self.name = name
        self.type = type
        self.isQueryable = isQueryable
        self.isSortable = isSortable
        self.isSearchable = isSearchable
    }

    /// A field with the indexes listed (repeats are harmless).
    public init(name: String, type: SchemaFieldType, indexes: [IndexKind]) {
        self.init(
            name: name, type: type, isQueryable: indexes.contains(.queryable), isSortable: indexes.contains(.sortable),
            isSearchable: indexes.contains(.searchable)
        )
    }

    /// The field's indexes, in `IndexKind.allCases` order.
    public var indexes: [IndexKind] {
        IndexKind.allCases.filter { kind in
            switch kind {
            case .queryable: isQueryable
            case .sortable: isSortable
            case .searchable: isSearchable
            }
        }
    }

    /// Whether this is one of CloudKit's system fields (its name starts with `___`).
    public var isSystemField: Bool { name.hasPrefix("___") }

    /// CloudKit's system fields as Apple's exports list them in every record type, unindexed.
    public static let systemFields: [SchemaFieldDefinition] = [
        SchemaFieldDefinition(name: "___createTime", type: SchemaFieldType(.timestamp)),
        SchemaFieldDefinition(name: "___createdBy", type: SchemaFieldType(.reference)),
        SchemaFieldDefinition(name: "___etag", type: SchemaFieldType(.string)),
        SchemaFieldDefinition(name: "___modTime", type: SchemaFieldType(.timestamp)),
        SchemaFieldDefinition(name: "___modifiedBy", type: SchemaFieldType(.reference)),
        SchemaFieldDefinition(name: "___recordID", type: SchemaFieldType(.reference)),
    ]
}
