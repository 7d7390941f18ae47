import StratusModel

/// Identifies one database: a scope of one container environment, owned by one user
/// (the public database is owned by ``publicOwner``).
public struct DatabaseKey: Sendable, Hashable {
    /// The owner name of every public database (emitted as the public zone's `ownerRecordName`).
    public static let publicOwner = "_defaultOwner"

    public var container: String
    public var environment: ContainerEnvironment
    public var scope: DatabaseScope
    public var owner: String

    public init(container: String, environment: ContainerEnvironment, scope: DatabaseScope, owner: String) {
        self.container = container
        self.environment = environment
        self.scope = scope
        self.owner = owner
    }
}

/// Identifies one zone of one database by name.
public struct ZoneKey: Sendable, Hashable {
    public var database: DatabaseKey
    public var name: String

    public init(database: DatabaseKey, name: String) {
        self.database = database
        self.name = name
    }
}
