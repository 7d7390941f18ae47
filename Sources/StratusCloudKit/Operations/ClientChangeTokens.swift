import Foundation
import Synchronization

/// The client change token each zone last received from this device, as Apple's service keeps
/// it: a ``CKModifyRecordsOperation`` with ``CKModifyRecordsOperation/clientChangeTokenData``
/// that saved or deleted something in a zone leaves its token there, and a
/// ``CKFetchRecordZoneChangesOperation`` of that zone hands it back
/// (`recordZoneChangeTokensUpdatedBlock`, `recordZoneFetchResultBlock`'s
/// `clientChangeTokenData`), so an app can tell whether its last modify reached the server.
///
/// The device is this process: the tokens are kept in memory, by container (its server,
/// identifier, environment and account), database and zone — after a relaunch a zone has none
/// until the app modifies it again, as on a device the service has not heard from.
enum ClientChangeTokens {
    private struct Key: Hashable, Sendable {
        var container: String
        var scope: CKDatabase.Scope
        var zoneID: CKRecordZone.ID
    }

    private static let tokens = Mutex<[Key: Data]>([:])

    /// Leaves `token` as the one `database` last received from this device in each of `zoneIDs`.
    static func remember(_ token: Data, in zoneIDs: some Sequence<CKRecordZone.ID>, of database: CKDatabase) {
        let container = database.container.processKey
        let keys = zoneIDs.map { Key(container: container, scope: database.databaseScope, zoneID: $0) }
        tokens.withLock { tokens in
            for key in keys { tokens[key] = token }
        }
    }

    /// The token this device last sent with a modify of `zoneID` in `database`, if any.
    static func token(for zoneID: CKRecordZone.ID, in database: CKDatabase) -> Data? {
        let key = Key(container: database.container.processKey, scope: database.databaseScope, zoneID: zoneID)
        return tokens.withLock { $0[key] }
    }
}
