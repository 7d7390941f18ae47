/// An index on a field: what queries it allows in the production environment.
public enum IndexKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Filters (EQUALS, ranges, IN, BEGINS_WITH, list comparators, NEAR).
    case queryable = "QUERYABLE"
    /// Sorting.
    case sortable = "SORTABLE"
    /// Token comparators (CONTAINS_ALL_TOKENS, CONTAINS_ANY_TOKENS).
    case searchable = "SEARCHABLE"
}

/// `POST /stratus/v1/admin/schema/show` (and `…/schema/deploy`): one container environment.
public struct SchemaRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment?
    public init(container: String, environment: ContainerEnvironment? = nil) {
        self.container = container
        self.environment = environment
    }
}

/// A container environment's schema: record types, their fields' types and indexes.
public struct SchemaDescription: Sendable, Hashable, Codable {
    /// One field of a record type (or a system field, named as its index: `___recordId`, …).
    public struct FieldDescription: Sendable, Hashable, Codable {
        public var name: String
        public var type: FieldType?
        public var indexes: [IndexKind]
        public init(name: String, type: FieldType?, indexes: [IndexKind]) {
            self.name = name
            self.type = type
            self.indexes = indexes
        }
    }

    /// One record type.
    public struct RecordTypeDescription: Sendable, Hashable, Codable {
        public var name: String
        public var fields: [FieldDescription]
        public init(name: String, fields: [FieldDescription]) {
            self.name = name
            self.fields = fields
        }
    }

    public var container: String
    public var environment: ContainerEnvironment
    public var recordTypes: [RecordTypeDescription]

    public init(container: String, environment: ContainerEnvironment, recordTypes: [RecordTypeDescription]) {
        self.container = container
        self.environment = environment
        self.recordTypes = recordTypes
    }
}

/// `POST /stratus/v1/admin/schema/indexes`: add or remove one index.
public struct IndexChangeRequest: Sendable, Hashable, Codable {
    public var container: String
    public var environment: ContainerEnvironment
    public var recordType: String
    /// A field of the record type, or a system field's index name (`___recordId`, `___createTime`, …;
    /// `___recordID`, as Apple's schema files spell it, is stored as `___recordId`).
    public var fieldName: String
    public var index: IndexKind
    /// `true` adds the index (the default), `false` removes it.
    public var present: Bool?

    public init(container: String, environment: ContainerEnvironment, recordType: String, fieldName: String, index: IndexKind, present: Bool? = nil) {
        self.container = container
        self.environment = environment
        self.recordType = recordType
        self.fieldName = fieldName
        self.index = index
        self.present = present
    }
}
