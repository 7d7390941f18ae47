import StratusModel
import StratusStore

/// What a request may do in the public database: the container environment's security roles
/// (``SecurityRoles``, from its schema's GRANTs, CloudKit's defaults without one) and the caller
/// as they see them. The one place public access is decided: records/modify takes its
/// ``writeRights`` to the batch, records/lookup answers a record the caller may not read with
/// `ACCESS_DENIED`, records/query reads only what the caller may read, and the push planner
/// notifies only subscribers who may read the changed record.
struct PublicAccess: Sendable {
    let roles: SecurityRoles
    let grantee: Grantee

    /// The request's access to the public database; `nil` for a private or shared one, where
    /// the roles do not apply.
    static func resolve(_ scope: RequestScope, database: DatabaseKey, schema: SchemaCache) async throws(StoreError) -> PublicAccess? {
        guard database.scope == .public else { return nil }
        let roles = try await schema.securityRoles(container: database.container, environment: database.environment)
        let grantee = try await schema.grantee(scope.caller, container: database.container, roles: roles)
        return PublicAccess(roles: roles, grantee: grantee)
    }

    /// What the caller may create and change, for the batch (`nil`: the developer, unchecked).
    var writeRights: WriteRights? { roles.writeRights(for: grantee) }

    /// Whether the caller may read `record`.
    func mayRead(_ record: StoredRecord) -> Bool {
        roles.mayRead(recordType: record.type, createdBy: record.created.userRecordName, grantee: grantee)
    }

    /// `query` narrowed to the records the caller may read: unchanged when they may read every
    /// record of its type, only those they created when `_creator` alone grants them `READ`.
    /// - Throws: `ACCESS_DENIED` when they may read none.
    func restrict(_ query: inout RecordQuery) throws(CoreError) {
        switch roles.reach(.read, recordType: query.recordType, for: grantee) {
        case .all:
            return
        case .own:
            guard let user = grantee.userRecordName else { throw Self.readDenied(query.recordType) }
            query.predicates.append(RecordQuery.Predicate(operand: .createdBy, comparator: .equals, value: .string(user)))
        case .denied:
            throw Self.readDenied(query.recordType)
        }
    }

    /// A lookup's answer for a record the caller may not read.
    static func readDenied(_ record: StoredRecord) -> RecordResult {
        .failure(RecordError(recordName: record.name, readDenied(record.type)))
    }

    /// The refusal of a read the schema's security roles do not allow.
    static func readDenied(_ recordType: String) -> CoreError {
        CoreError(
            .accessDenied,
            "permission denied: the schema's security roles grant READ on '\(recordType)' records to no role this caller holds"
        )
    }
}
