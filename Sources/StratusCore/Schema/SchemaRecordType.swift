/// One `RECORD TYPE name ( … );` of a schema: its fields and who may do what with its records.
public struct SchemaRecordType: Sendable, Hashable {
    /// The record type's name (`Users` is CloudKit's own; names are case-sensitive).
    public var name: String
    /// The fields, system fields (`"___recordID"`, …) among them, in the order written.
    public var fields: [SchemaFieldDefinition]
    /// The `GRANT` lines, in the order written: the public database's security roles.
    public var grants: [SchemaGrant]

    /// A record type with these fields and grants, in this order.
    public init(name: String, fields: [SchemaFieldDefinition] = [], grants: [SchemaGrant] = []) {
        self.name = name
        self.fields = fields
        self.grants = grants
    }

    /// The field named `name` (case-sensitive), or `nil`.
    public func field(named name: String) -> SchemaFieldDefinition? {
        fields.first { $0.name == name }
    }

    /// What `role` may do with this type's records: every permission its grants give it.
    public func permissions(of role: String) -> Set<SchemaPermission> {
        var permissions: Set<SchemaPermission> = []
        for grant in grants where grant.role == role {
            permissions.formUnion(grant.permissions)
        }
        return permissions
    }
}
