/// `POST /stratus/v1/admin/schema/import`: a schema file to import into a container's
/// development environment, as `xcrun cktool import-schema` does (the export is
/// `GET /stratus/v1/admin/schema/export`).
public struct SchemaImportRequest: Sendable, Hashable, Codable {
    public var container: String
    /// The file's text, in the CloudKit Schema Language (`DEFINE SCHEMA …`).
    public var schema: String

    public init(container: String, schema: String) {
        self.container = container
        self.schema = schema
    }
}

/// One user's membership of a role a container's schema makes with `CREATE ROLE`: in the
/// public database they get what the schema grants the role.
public struct RoleMember: Sendable, Hashable, Codable {
    public var role: String
    public var userRecordName: String

    public init(role: String, userRecordName: String) {
        self.role = role
        self.userRecordName = userRecordName
    }
}

/// `POST /stratus/v1/admin/roles/members`: give a user a role (`present` true, the default) or
/// take it away.
public struct RoleMembershipRequest: Sendable, Hashable, Codable {
    public var container: String
    /// A role the container's schema makes with `CREATE ROLE` (not `_world`, `_icloud` or `_creator`).
    public var role: String
    public var userRecordName: String
    /// `true` adds the membership (the default), `false` removes it.
    public var present: Bool?

    public init(container: String, role: String, userRecordName: String, present: Bool? = nil) {
        self.container = container
        self.role = role
        self.userRecordName = userRecordName
        self.present = present
    }
}

/// A container's role memberships (`GET /stratus/v1/admin/roles/members`, and the answer to a change).
public struct RoleMembersResponse: Sendable, Hashable, Codable {
    public var container: String
    public var members: [RoleMember]

    public init(container: String, members: [RoleMember]) {
        self.container = container
        self.members = members
    }
}
