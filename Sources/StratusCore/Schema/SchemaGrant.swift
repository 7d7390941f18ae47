/// What a `GRANT` allows: `READ` records, `CREATE` them, `WRITE` (change and delete) them.
public enum SchemaPermission: String, Sendable, Hashable, CaseIterable {
    // Declared in the order Apple's exports list them: `GRANT READ, CREATE, WRITE TO "_icloud"`.
    case read = "READ"
    case create = "CREATE"
    case write = "WRITE"
}

/// CloudKit's built-in security roles, as schema files name them.
public enum SchemaRole {
    /// Everyone, signed in or not.
    public static let world = "_world"
    /// Any signed-in iCloud user.
    public static let icloud = "_icloud"
    /// The user who created the record.
    public static let creator = "_creator"
    /// The three built-in roles; any other role must be made with `CREATE ROLE`.
    public static let builtIn: Set<String> = [world, icloud, creator]
}

/// One `GRANT {READ | CREATE | WRITE}[, …] TO "role"` line of a record type.
public struct SchemaGrant: Sendable, Hashable {
    /// The permissions granted (at least one in a document the parser accepts).
    public var permissions: Set<SchemaPermission>
    /// A built-in role (``SchemaRole``) or one the document creates.
    public var role: String

    /// `GRANT permissions TO "role"`.
    public init(_ permissions: Set<SchemaPermission>, to role: String) {
        self.permissions = permissions
        self.role = role
    }

    /// The grants CloudKit gives a record type it creates, as its exports show them: the creator
    /// writes, signed-in users create, everyone reads. `Users` (CloudKit's own type) has no
    /// `CREATE` grant: its records are made by CloudKit.
    public static func defaults(forRecordType name: String) -> [SchemaGrant] {
        if name == "Users" {
            return [SchemaGrant([.write], to: SchemaRole.creator), SchemaGrant([.read], to: SchemaRole.world)]
        }
        return [
            SchemaGrant([.write], to: SchemaRole.creator), SchemaGrant([.create], to: SchemaRole.icloud),
            SchemaGrant([.read], to: SchemaRole.world),
        ]
    }
}
