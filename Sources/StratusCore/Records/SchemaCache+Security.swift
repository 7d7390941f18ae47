import Synchronization
import StratusModel
import StratusStore

/// The imported schema documents and role memberships, cached beside the learned schema (and
/// forgotten with it): the public database's security roles cost no query per request.
extension SchemaCache {
    /// The document last imported into (or deployed to) a container environment, parsed once;
    /// `nil` when it has none.
    /// - Throws: ``StoreError/Kind/failure`` when the stored document does not parse (refusing
    ///   beats deciding access from less than the schema says).
    func declared(container: String, environment: ContainerEnvironment) async throws(StoreError) -> SchemaDocument? {
        try await loadDeclared(container: container, environment: environment).document
    }

    /// The security roles of a container environment's public database.
    func securityRoles(container: String, environment: ContainerEnvironment) async throws(StoreError) -> SecurityRoles {
        try await loadDeclared(container: container, environment: environment).roles
    }

    /// The cached document and roles, loaded from the store on first use.
    private func loadDeclared(container: String, environment: ContainerEnvironment) async throws(StoreError) -> Declared {
        let key = Key(container: container, environment: environment)
        if let cached = documentCache.withLock({ $0[key] }) { return cached }
        let loadedAt = generation.withLock { $0 }
        let text = try await store.schemaDocument(container: container, environment: environment)
        var document: SchemaDocument?
        if let text {
            do {
                document = try SchemaParser.parse(text)
            } catch {
                throw StoreError(.failure, "the schema document of \(container) (\(environment.rawValue)) does not parse: \(error)")
            }
        }
        let declared = Declared(document: document, roles: SecurityRoles(document: document))
        cacheUnlessForgotten(since: loadedAt) { documentCache.withLock { $0[key] = declared } }
        return declared
    }

    /// `caller` as `roles` see them: with their memberships when the roles grant to any role
    /// made with `CREATE ROLE` (the memberships are not read otherwise).
    func grantee(_ caller: Caller, container: String, roles: SecurityRoles) async throws(StoreError) -> Grantee {
        guard roles.grantsCustomRoles, !caller.isDeveloper, let user = caller.userRecordName else { return Grantee(caller) }
        return Grantee(caller, roles: try await memberships(container: container)[user] ?? [])
    }

    /// The subscriber `user` of a public subscription as `roles` see them (the developer's own
    /// name is the developer).
    func grantee(user: String, container: String, roles: SecurityRoles) async throws(StoreError) -> Grantee {
        try await grantee(user == ServerKeys.developer ? .developer : .user(userRecordName: user), container: container, roles: roles)
    }

    /// Each user of a container with the roles they hold (loaded from the store on first use).
    func memberships(container: String) async throws(StoreError) -> [String: Set<String>] {
        if let cached = memberCache.withLock({ $0[container] }) { return cached }
        let loadedAt = generation.withLock { $0 }
        var loaded: [String: Set<String>] = [:]
        let members = try await store.roleMembers(container: container)
        for member in members {
            loaded[member.userRecordName, default: []].insert(member.role)
        }
        cacheUnlessForgotten(since: loadedAt) { memberCache.withLock { $0[container] = loaded } }
        return loaded
    }

    /// Runs `store` (caching a value read from the store) unless a forget came after `generation`
    /// was read: the value may predate what was forgotten, and is read again next time.
    private func cacheUnlessForgotten(since loadedAt: UInt64, _ store: () -> Void) {
        generation.withLock { current in
            if current == loadedAt { store() }
        }
    }
}
