import StratusModel

/// A container environment's whole schema as an import states it: what
/// ``SchemaDocumentStore/replaceSchema(_:)`` leaves in place of the schema there was.
public struct SchemaReplacement: Sendable, Hashable {
    public var container: String
    public var environment: ContainerEnvironment
    /// Every field type of the schema (record type, field, CKWS type): the learned schema's rows.
    public var fields: [SchemaField]
    /// Every index of the schema (a field, or a system field's index name such as `___recordId`).
    /// Only each definition's record type, field name and kind are read: the replacement's
    /// container and environment are the ones written.
    public var indexes: [IndexDefinition]
    /// The document as imported, in the CloudKit Schema Language: kept for what the learned
    /// schema cannot say (roles and grants, encrypted types, types without fields).
    public var document: String

    public init(container: String, environment: ContainerEnvironment, fields: [SchemaField], indexes: [IndexDefinition], document: String) {
        self.container = container
        self.environment = environment
        self.fields = fields
        self.indexes = indexes
        self.document = document
    }
}

/// The schema document imported into each container environment (CloudKit Schema Language
/// text, as Core wrote it), and who holds each role a document makes with `CREATE ROLE`.
///
/// The store keeps the text and never reads it: Core parses it. ``SchemaStore/deploySchema(container:)``
/// copies development's document into production with its types and indexes.
public protocol SchemaDocumentStore: Sendable {
    /// The document last imported into (or deployed to) a container environment, or `nil`.
    func schemaDocument(container: String, environment: ContainerEnvironment) async throws(StoreError) -> String?
    /// Replaces the environment's field types, indexes and document with `replacement`'s, in one
    /// transaction; SQL expression indexes follow the indexes that name them.
    func replaceSchema(_ replacement: SchemaReplacement) async throws(StoreError)
    /// Every role membership of a container (the same in both environments), by role, then user,
    /// in the byte order of their names.
    func roleMembers(container: String) async throws(StoreError) -> [RoleMember]
    /// Adds (`present`) or removes one membership; adding one twice, or removing one that is
    /// not there, changes nothing.
    func setRoleMember(_ member: RoleMember, container: String, present: Bool) async throws(StoreError)
}
