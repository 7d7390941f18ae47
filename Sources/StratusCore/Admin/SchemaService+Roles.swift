import StratusModel
import StratusStore

/// Who holds the roles a container's schema makes with `CREATE ROLE`: in the public database a
/// member gets what the schema grants the role (``SecurityRoles``), in both environments.
extension SchemaService {
    /// A container's role memberships, by role, then user.
    /// - Throws: ``CoreError`` when the store cannot be read.
    public func roleMembers(container: String) async throws(CoreError) -> RoleMembersResponse {
        let members = try await CoreError.translating { () async throws(StoreError) -> [RoleMember] in
            try await store.roleMembers(container: container)
        }
        return RoleMembersResponse(container: container, members: members)
    }

    /// Gives a user a role (`present` true, the default) or takes it away; answers the
    /// container's memberships as they now are.
    /// - Throws: `BAD_REQUEST` for a built-in role (`_world`, `_icloud` and `_creator` are
    ///   CloudKit's to give), an empty user, or a role to give that neither environment's schema
    ///   makes (import one that does first).
    public func changeRoleMember(_ request: RoleMembershipRequest) async throws(CoreError) -> RoleMembersResponse {
        let container = request.container
        guard !SchemaRole.builtIn.contains(request.role) else {
            throw CoreError.badRequest("'\(request.role)' is a built-in role: CloudKit gives it; give users roles the schema makes with CREATE ROLE")
        }
        guard !request.userRecordName.isEmpty, !request.role.isEmpty else { throw CoreError.badRequest("give a role and a userRecordName") }
        let present = request.present ?? true
        if present {
            let made = try await CoreError.translating { () async throws(StoreError) -> Set<String> in
                let development = try await cache.declared(container: container, environment: .development)?.roles ?? []
                let production = try await cache.declared(container: container, environment: .production)?.roles ?? []
                return Set(development).union(production)
            }
            guard made.contains(request.role) else {
                let known = made.sorted().joined(separator: ", ")
                throw CoreError.badRequest(
                    "\(container)'s schema makes no role '\(request.role)' (roles: \(known.isEmpty ? "none" : known)); import a schema with CREATE ROLE \(request.role); first"
                )
            }
        }
        let member = RoleMember(role: request.role, userRecordName: request.userRecordName)
        do {
            try await store.setRoleMember(member, container: container, present: present)
        } catch {
            throw CoreError(error)
        }
        cache.forget(container: container)
        return try await roleMembers(container: container)
    }
}
