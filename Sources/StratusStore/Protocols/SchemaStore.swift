import StratusModel

/// One index of a container environment's schema.
public struct IndexDefinition: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    public var recordType: String
    public var fieldName: String
    public var kind: IndexKind

    public init(container: String, environment: ContainerEnvironment, recordType: String, fieldName: String, kind: IndexKind) {
        self.container = container
        self.environment = environment
        self.recordType = recordType
        self.fieldName = fieldName
        self.kind = kind
    }
}

/// The schema's indexes and deployment. A QUERYABLE or SORTABLE index on a user field is a real
/// SQL expression index over the stored field, so a query through it does not scan the table.
public protocol SchemaStore: Sendable {
    /// Every index of a container environment.
    func indexes(container: String, environment: ContainerEnvironment) async throws(StoreError) -> [IndexDefinition]
    /// Adds (`present`) or removes an index.
    func setIndex(_ index: IndexDefinition, present: Bool) async throws(StoreError)
    /// Copies the development schema (types, fields, indexes) into production, adding only, and
    /// development's schema document (``SchemaDocumentStore``), when it has one, in place of
    /// production's: one transaction.
    func deploySchema(container: String) async throws(StoreError)
    /// SQLite's plan for a query (`EXPLAIN QUERY PLAN` details), to show which index it uses.
    func queryPlan(_ query: RecordQuery) async throws(StoreError) -> [String]
}
