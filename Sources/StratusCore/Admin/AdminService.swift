import StratusModel
import StratusStore

/// Operator actions under `/stratus/v1/admin/`: compaction (to expire old change tokens) and the
/// account events a device must survive — a zone deleted, purged or lost to an encrypted-data
/// reset, a web auth token revoked, a storage quota reached.
public struct AdminService: Sendable {
    let store: any RecordStore & QuotaStore
    let identity: IdentityService
    let push: PushDispatcher

    /// Drops a zone's tombstones and raises its compaction horizon to its current sequence:
    /// zone tokens from before now get the change-token-expired error; a fetch without a token works.
    /// - Throws: `ZONE_NOT_FOUND`.
    public func compact(zoneName: String, ownerRecordName: String, database: DatabaseRef) async throws(CoreError) -> Zone {
        let key = Self.zoneKey(zoneName, owner: ownerRecordName, database: database)
        do {
            let zone = try await store.compact(key)
            // Devices learn of it as of any change: their next fetch meets the expired token.
            push.publish(CommitEvent(zone: key, author: ownerRecordName, originDevice: nil, previousSeq: zone.lastSeq))
            return Zone(
                zoneID: ZoneID(zoneName: zone.name, ownerRecordName: ownerRecordName),
                syncToken: ChangeToken(kind: .zone, zoneGeneration: zone.id, sequence: zone.lastSeq).encoded,
                atomic: zone.atomic
            )
        } catch {
            throw CoreError(error)
        }
    }

    /// Expires every change token of a database: its database tokens from before now get the
    /// change-token-expired error, and each zone is compacted (a shared database: only the
    /// participant's database token, the zones being their owners').
    public func compactDatabase(_ request: CompactDatabaseRequest) async throws(CoreError) -> CompactDatabaseResponse {
        let key = DatabaseKey(
            container: request.container, environment: request.environment, scope: request.database ?? .private, owner: request.ownerRecordName
        )
        do {
            let zones = key.scope == .shared ? [] : try await store.zones(in: key)
            let horizon = try await store.compactDatabase(key)
            for zone in zones {
                let zoneKey = ZoneKey(database: key, name: zone.name)
                push.publish(CommitEvent(zone: zoneKey, author: request.ownerRecordName, originDevice: nil, previousSeq: zone.lastSeq))
            }
            return CompactDatabaseResponse(syncToken: ChangeToken(kind: .database, sequence: horizon).encoded)
        } catch {
            throw CoreError(error)
        }
    }

    /// Deletes one of an account's private zones for `reason`, as the device would see it happen:
    /// the records go, `changes/database` reports the zone deleted with the reason, subscribers
    /// are notified. Participants of its shares see it leave their shared database.
    /// - Throws: `ZONE_NOT_FOUND`; `BAD_REQUEST` for the default zone.
    public func resetZone(_ request: ZoneResetRequest) async throws(CoreError) -> ZoneResetResponse {
        guard request.zoneName != ZoneID.defaultZoneName else {
            throw CoreError.badRequest("the default zone cannot be deleted; its records can")
        }
        let database = DatabaseRef(container: request.container, environment: request.environment, scope: .private)
        let key = Self.zoneKey(request.zoneName, owner: request.userRecordName, database: database)
        do {
            let zone = try await store.deleteZone(key, reason: request.reason)
            push.publish(CommitEvent(zone: key, author: request.userRecordName, originDevice: nil, previousSeq: zone.feedSeq - 1))
            return ZoneResetResponse(
                zoneID: ZoneID(zoneName: zone.name, ownerRecordName: request.userRecordName), deletionReason: request.reason
            )
        } catch {
            throw CoreError(error)
        }
    }

    /// Sets or lifts an account's storage quota; answers what its records use now.
    /// - Throws: `BAD_REQUEST` for a negative quota; `NOT_FOUND` for an unknown account.
    public func setQuota(_ request: SetQuotaRequest) async throws(CoreError) -> QuotaResponse {
        if let bytes = request.bytes, bytes < 0 { throw CoreError.badRequest("bytes must be 0 or more (null lifts the quota)") }
        guard try await identity.account(userRecordName: request.userRecordName) != nil else {
            throw CoreError(.notFound, "no account '\(request.userRecordName)'")
        }
        do {
            let used = try await store.setQuota(
                request.bytes, container: request.container, environment: request.environment, owner: request.userRecordName
            )
            return QuotaResponse(userRecordName: request.userRecordName, bytes: request.bytes, usedBytes: used)
        } catch {
            throw CoreError(error)
        }
    }

    private static func zoneKey(_ name: String, owner: String, database: DatabaseRef) -> ZoneKey {
        ZoneKey(
            database: DatabaseKey(container: database.container, environment: database.environment, scope: database.scope, owner: owner),
            name: name
        )
    }
}
