import StratusModel
import StratusStore

/// Who asks, as a schema's security roles see them: signed in or not, the developer or not, and
/// the roles made with `CREATE ROLE` they hold.
public struct Grantee: Sendable, Hashable {
    /// The user the caller reads and writes as; `nil` for an API token alone.
    public var userRecordName: String?
    /// A server-to-server key: the container's developer, whom no role binds.
    public var isDeveloper: Bool
    /// The roles made with `CREATE ROLE` the user holds.
    public var roles: Set<String>

    /// A grantee as given.
    public init(userRecordName: String?, isDeveloper: Bool = false, roles: Set<String> = []) {
        self.userRecordName = userRecordName
        self.isDeveloper = isDeveloper
        self.roles = roles
    }

    /// The caller, holding `roles` (a signed-in user's memberships).
    public init(_ caller: Caller, roles: Set<String> = []) {
        self.init(userRecordName: caller.userRecordName, isDeveloper: caller.isDeveloper, roles: roles)
    }

    /// Every role that grants reach the caller through, `_creator` aside: `_world` always,
    /// `_icloud` when signed in, and the roles the user holds.
    public var heldRoles: Set<String> {
        var held: Set<String> = [SchemaRole.world]
        if userRecordName != nil {
            held.insert(SchemaRole.icloud)
            held.formUnion(roles)
        }
        return held
    }
}

/// The public database's security roles, from the schema document imported into a container
/// environment: which records of each type a caller may read (`READ`), whether they may create
/// them (`CREATE`), and which they may change and delete (`WRITE`).
///
/// A grant to `_world` reaches everyone, to `_icloud` every signed-in user, to a role made with
/// `CREATE ROLE` its members; a grant to `_creator` reaches the records the caller created (it
/// never lets anyone create). The developer (a server-to-server key) may do everything. A
/// record type the document does not define has CloudKit's defaults
/// (``SchemaGrant/defaults(forRecordType:)``); without a document every type has them as any
/// record type does: everyone reads, signed-in users create, only the creator writes.
///
/// Pure: the same document and grantee always decide alike (``SchemaService`` keeps the
/// document; `RecordService`, `QueryService` and the push planner ask).
public struct SecurityRoles: Sendable, Hashable {
    /// How far a permission reaches over a record type's records.
    public enum Reach: Sendable, Hashable {
        /// No record of the type.
        case denied
        /// The records the caller created (a grant to `_creator`).
        case own
        /// Every record of the type.
        case all
    }

    /// The grants of each record type the document defines.
    public let recordTypeGrants: [String: [SchemaGrant]]
    /// The roles the document makes with `CREATE ROLE`.
    public let roles: [String]
    /// Whether the grants come from a document (`false`: CloudKit's defaults for every type).
    public let isDeclared: Bool

    /// The grants `document` gives (CloudKit's defaults without one).
    public init(document: SchemaDocument?) {
        var grants: [String: [SchemaGrant]] = [:]
        for recordType in document?.recordTypes ?? [] {
            grants[recordType.name] = recordType.grants
        }
        self.recordTypeGrants = grants
        self.roles = document?.roles ?? []
        self.isDeclared = document != nil
    }

    /// Without a document: everyone reads, signed-in users create, only the creator writes.
    public static let defaults = SecurityRoles(document: nil)

    /// CloudKit's grants for a record type no document defines.
    static let defaultGrants = SchemaGrant.defaults(forRecordType: "")

    /// The grants of `recordType`.
    public func grants(for recordType: String) -> [SchemaGrant] {
        guard isDeclared else { return Self.defaultGrants }
        return recordTypeGrants[recordType] ?? SchemaGrant.defaults(forRecordType: recordType)
    }

    /// How far `permission` on `recordType`'s records reaches for `grantee`.
    public func reach(_ permission: SchemaPermission, recordType: String, for grantee: Grantee) -> Reach {
        Self.reach(permission, grants: grants(for: recordType), for: grantee)
    }

    /// Whether `grantee` may read a record of `recordType` that `creator` created.
    public func mayRead(recordType: String, createdBy creator: String?, grantee: Grantee) -> Bool {
        switch reach(.read, recordType: recordType, for: grantee) {
        case .all: true
        case .own: creator != nil && creator == grantee.userRecordName
        case .denied: false
        }
    }

    /// What `grantee` may create and change, for the batch engine to check against each record's
    /// live row; `nil` for the developer, whom no role binds.
    public func writeRights(for grantee: Grantee) -> WriteRights? {
        guard !grantee.isDeveloper else { return nil }
        func permissions(_ grants: [SchemaGrant]) -> WriteRights.Permissions {
            let write = Self.reach(.write, grants: grants, for: grantee)
            return WriteRights.Permissions(
                create: Self.reach(.create, grants: grants, for: grantee) == .all, changeOwn: write != .denied, changeAny: write == .all
            )
        }
        guard isDeclared else { return WriteRights(otherwise: permissions(Self.defaultGrants)) }
        var recordTypes: [String: WriteRights.Permissions] = [:]
        for (name, typeGrants) in recordTypeGrants {
            recordTypes[name] = permissions(typeGrants)
        }
        // CloudKit's own `Users` type has defaults of its own (no CREATE).
        if recordTypes["Users"] == nil {
            recordTypes["Users"] = permissions(SchemaGrant.defaults(forRecordType: "Users"))
        }
        return WriteRights(recordTypes: recordTypes, otherwise: permissions(Self.defaultGrants))
    }

    /// Whether any grant names a role made with `CREATE ROLE` (only then do memberships matter).
    public var grantsCustomRoles: Bool {
        recordTypeGrants.values.contains { typeGrants in typeGrants.contains { grant in !SchemaRole.builtIn.contains(grant.role) } }
    }

    /// How far `permission` reaches under `grants` for `grantee`.
    static func reach(_ permission: SchemaPermission, grants: [SchemaGrant], for grantee: Grantee) -> Reach {
        if grantee.isDeveloper { return .all }
        let held = grantee.heldRoles
        var own = false
        for grant in grants where grant.permissions.contains(permission) {
            if held.contains(grant.role) { return .all }
            if grant.role == SchemaRole.creator { own = true }
        }
        // `_creator` reaches the caller's own records: none for a caller who is nobody, and it
        // never lets anyone create.
        return own && permission != .create && grantee.userRecordName != nil ? .own : .denied
    }
}
