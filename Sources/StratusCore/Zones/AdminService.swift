import StratusModel
import StratusStore

/// Operator actions under `/stratus/v1/admin/`: compaction (to expire old change tokens).
public struct AdminService: Sendable {
    let store: any RecordStore
    let push: PushDispatcher

    /// Drops a zone's tombstones and raises its compaction horizon to its current sequence:
    /// zone tokens from before now get the change-token-expired error; a fetch without a token works.
    /// - Throws: `ZONE_NOT_FOUND`.
    public func compact(zoneName: String, ownerRecordName: String, database: DatabaseRef) async throws(CoreError) -> Zone {
        let key = ZoneKey(
            database: DatabaseKey(
                container: database.container, environment: database.environment, scope: database.scope, owner: ownerRecordName
            ),
            name: zoneName
        )
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
}
