import StratusModel
import StratusStore

/// Decides which stored database and zone a request may address.
///
/// A private database belongs to the caller alone: a zone ID naming another owner is answered
/// as if the zone did not exist, so one account can never see or touch another's private data.
/// The shared database is keyed by its user too; its zones are other owners' zones, resolved
/// through ``SharedZoneView`` (no zone is ever stored under the shared scope).
struct DatabaseAccess: Sendable {
    let configuration: CoreConfiguration

    /// The stored database the request addresses.
    /// - Throws: `AUTHENTICATION_REQUIRED` (421) for private and shared without a user;
    ///   the shared database's key is the caller's, its zones resolve through ``SharedZoneView``.
    func database(for scope: RequestScope) throws(CoreError) -> DatabaseKey {
        let ref = scope.database
        switch ref.scope {
        case .private:
            guard let user = scope.caller.userRecordName else { throw authenticationRequired(scope) }
            return DatabaseKey(container: ref.container, environment: ref.environment, scope: .private, owner: user)
        case .shared:
            guard let user = scope.caller.userRecordName else { throw authenticationRequired(scope) }
            return DatabaseKey(container: ref.container, environment: ref.environment, scope: .shared, owner: user)
        case .public:
            return DatabaseKey(container: ref.container, environment: ref.environment, scope: .public, owner: DatabaseKey.publicOwner)
        }
    }

    /// Zone operations and change feeds exist in the private and shared databases only.
    /// - Throws: `BAD_REQUEST` in the public database (CKError.badDatabase natively).
    func requireZones(in database: DatabaseKey, _ what: String) throws(CoreError) {
        guard database.scope != .public else {
            throw CoreError.badRequest("\(what) is not available in the public database, which has only its default zone")
        }
    }

    func authenticationRequired(_ scope: RequestScope) -> CoreError { configuration.authenticationRequired(scope) }

    /// The zone a zone ID names within `database`, or `nil` when the ID names another owner.
    func zoneKey(_ zoneID: ZoneID?, in database: DatabaseKey) -> ZoneKey? {
        let zoneID = zoneID ?? .defaultZone()
        if database.scope == .public {
            // The public database has only the default zone, owned by no user.
            guard zoneID.isDefaultZone else { return nil }
            return ZoneKey(database: database, name: zoneID.zoneName)
        }
        if let owner = zoneID.ownerRecordName, owner != ZoneID.currentUserOwnerName, owner != database.owner {
            return nil
        }
        return ZoneKey(database: database, name: zoneID.zoneName)
    }

    /// The zone ID the server emits for a zone of `database`.
    func zoneID(named name: String, in database: DatabaseKey) -> ZoneID {
        ZoneID(zoneName: name, ownerRecordName: database.owner)
    }
}
