import StratusModel
import StratusStore

/// zones/list, zones/lookup and zones/modify.
///
/// In the shared database the zones are the owners' zones the caller takes part in: listed and
/// looked up with the owner's `ownerRecordName`, never created or deleted there (only the
/// owner deletes a shared zone, from their private database).
public struct ZoneService: Sendable {
    let store: any RecordStore & ShareStore
    let access: DatabaseAccess
    let defaultZones: DefaultZones
    let configuration: CoreConfiguration
    let push: PushDispatcher

    /// Every zone of the database with its current sync token (the default zone included).
    /// `zoneShares`: each zone names its zone-wide share (``WireExtensions/zoneShares``).
    public func list(scope: RequestScope, zoneShares: Bool = false) async throws(CoreError) -> ZonesResponse {
        let database = try access.database(for: scope)
        do {
            if database.scope == .shared {
                return ZonesResponse(zones: try await sharedZones(of: database, zoneShares: zoneShares).map { .success($0) })
            }
            try await defaultZones.ensure(in: database)
            var zones: [ZoneResult] = []
            for zone in try await store.zones(in: database) {
                var wire = wireZone(zone, in: database)
                if zoneShares { wire.share = try await zoneWideShare(of: ZoneKey(database: database, name: zone.name), as: wire.zoneID) }
                zones.append(.success(wire))
            }
            return ZonesResponse(zones: zones)
        } catch {
            throw CoreError(error)
        }
    }

    /// The named zones; an unknown one is a `ZONE_NOT_FOUND` entry. `zoneShares`: each zone
    /// names its zone-wide share (``WireExtensions/zoneShares``).
    public func lookup(_ request: LookupZonesRequest, scope: RequestScope, zoneShares: Bool = false) async throws(CoreError) -> ZonesResponse {
        let database = try access.database(for: scope)
        try configuration.checkCount(request.zones.count, of: "zones")
        do {
            if database.scope == .shared {
                let shared = try await sharedZones(of: database, zoneShares: zoneShares)
                return ZonesResponse(zones: request.zones.map { zoneID in
                    guard let zone = shared.first(where: { $0.zoneID.zoneName == zoneID.zoneName && $0.zoneID.ownerRecordName == zoneID.ownerRecordName })
                    else { return .failure(ZoneError(zoneID: zoneID, serverErrorCode: .zoneNotFound, reason: "Zone not found")) }
                    return .success(zone)
                })
            }
            try await defaultZones.ensure(in: database)
            var results: [ZoneResult] = []
            for zoneID in request.zones {
                guard let key = access.zoneKey(zoneID, in: database), let zone = try await store.zone(key) else {
                    let missing = await ZoneTarget.missing(zoneID, in: database, access: access, store: store)
                    results.append(.failure(ZoneError(zoneID: zoneID, missing)))
                    continue
                }
                var wire = wireZone(zone, in: database)
                if zoneShares { wire.share = try await zoneWideShare(of: key, as: wire.zoneID) }
                results.append(.success(wire))
            }
            return ZonesResponse(zones: results)
        } catch {
            throw CoreError(error)
        }
    }

    /// Creates and deletes zones in order. Creating an existing zone returns it; deleting a zone
    /// deletes its records and reports it in the database change feed as deleted.
    public func modify(_ request: ModifyZonesRequest, scope: RequestScope) async throws(CoreError) -> ZonesResponse {
        let database = try access.database(for: scope)
        try access.requireZones(in: database, "zones/modify")
        try configuration.checkCount(request.operations.count, of: "zones")
        if database.scope == .shared {
            var results: [ZoneResult] = []
            for operation in request.operations { results.append(try await leaveOrRefuse(operation, in: database, scope: scope)) }
            return ZonesResponse(zones: results)
        }
        var results: [ZoneResult] = []
        for operation in request.operations {
            let zoneID = operation.zone.zoneID
            func failure(_ code: ServerErrorCode, _ reason: String) -> ZoneResult {
                .failure(ZoneError(zoneID: zoneID, serverErrorCode: code, reason: reason))
            }
            guard let key = access.zoneKey(zoneID, in: database) else {
                results.append(failure(.zoneNotFound, "Zone not found"))
                continue
            }
            if key.name == ZoneID.defaultZoneName {
                results.append(failure(.badRequest, "the default zone cannot be \(operation.operationType == .create ? "created" : "deleted")"))
                continue
            }
            guard NameRules.isValidZoneName(key.name) else {
                results.append(failure(.badRequest, "invalid zoneName '\(key.name)'"))
                continue
            }
            do {
                switch operation.operationType {
                case .create:
                    // Creating a zone that exists changes nothing, and notifies no one.
                    let existed = try await store.zone(key) != nil
                    let zone = try await store.createZone(key, atomic: true)
                    if !existed {
                        push.publish(CommitEvent(zone: key, author: database.owner, originDevice: scope.deviceID, previousSeq: zone.createdSeq - 1))
                    }
                    results.append(.success(wireZone(zone, in: database)))
                case .delete:
                    let zone = try await store.deleteZone(key)
                    push.publish(CommitEvent(zone: key, author: database.owner, originDevice: scope.deviceID, previousSeq: zone.feedSeq - 1))
                    results.append(.success(Zone(zoneID: access.zoneID(named: zone.name, in: database), deleted: true)))
                }
            } catch where error.kind == .zoneNotFound {
                results.append(failure(.zoneNotFound, "Zone not found"))
            } catch {
                throw CoreError(error)
            }
        }
        return ZonesResponse(zones: results)
    }

    /// The live zones shared with the caller, named with their owners (with their zone-wide
    /// shares when `zoneShares`).
    private func sharedZones(of database: DatabaseKey, zoneShares: Bool) async throws(StoreError) -> [Zone] {
        var zones: [Zone] = []
        for shared in try await store.sharedZones(of: database.owner, container: database.container, environment: database.environment) {
            var zone = Zone(
                zoneID: ZoneID(zoneName: shared.zone.name, ownerRecordName: shared.owner),
                syncToken: ChangeToken(kind: .zone, zoneGeneration: shared.zone.id, sequence: shared.zone.lastSeq).encoded,
                atomic: shared.zone.atomic
            )
            if zoneShares {
                let ownerDatabase = DatabaseKey(container: database.container, environment: database.environment, scope: .private, owner: shared.owner)
                zone.share = try await zoneWideShare(of: ZoneKey(database: ownerDatabase, name: shared.zone.name), as: zone.zoneID)
            }
            zones.append(zone)
        }
        return zones
    }

    /// The zone's zone-wide share (the live `cloudkit.zoneshare` record), pointed at in the
    /// zone's own terms; `nil` when it has none. A zone holds either one zone-wide share or
    /// hierarchy shares, so a participant who sees the zone takes part in it.
    private func zoneWideShare(of key: ZoneKey, as zoneID: ZoneID) async throws(StoreError) -> RecordPointer? {
        guard key.name != ZoneID.defaultZoneName else { return nil }
        guard let share = try await store.records(named: [ShareNames.zoneWideShare], in: key).first ?? nil else { return nil }
        return RecordPointer(recordName: share.name, zoneID: zoneID)
    }

    /// A zone operation in the shared database: deleting a shared zone leaves every share of it
    /// the caller takes part in (the owner's zone and records stay), as one zone batch of the
    /// same `leave` writes a share delete in records/modify makes; creating one is refused.
    private func leaveOrRefuse(
        _ operation: ModifyZonesRequest.Operation, in database: DatabaseKey, scope: RequestScope
    ) async throws(CoreError) -> ZoneResult {
        let zoneID = operation.zone.zoneID
        guard operation.operationType == .delete else {
            return .failure(ZoneError(
                zoneID: zoneID, serverErrorCode: .accessDenied,
                reason: "zones in the shared database belong to their owners: only the owner creates them"
            ))
        }
        do {
            guard let view = try await SharedZoneView.resolve(zoneID, in: database, store: store) else {
                return .failure(ZoneError(zoneID: zoneID, serverErrorCode: .zoneNotFound, reason: "Zone not found"))
            }
            let leaves = view.grants.map { grant in
                RecordWrite(name: grant.share.record.name, action: .leave, precondition: .none, recordType: nil)
            }
            let author = ChangeAuthor(userRecordName: view.user, deviceID: scope.deviceID, timestamp: configuration.now())
            let batch = ZoneBatch(zone: view.key, atomic: false, writes: leaves, author: author)
            push.publish(CommitEvent(try await store.apply(batch), batch: batch))
            return .success(Zone(zoneID: view.zoneID, deleted: true))
        } catch {
            throw CoreError(error)
        }
    }

    /// A stored zone on the wire; the default zone has no change token to hand out.
    private func wireZone(_ zone: StoredZone, in database: DatabaseKey) -> Zone {
        Zone(
            zoneID: access.zoneID(named: zone.name, in: database),
            syncToken: zone.name == ZoneID.defaultZoneName
                ? nil : ChangeToken(kind: .zone, zoneGeneration: zone.id, sequence: zone.lastSeq).encoded,
            atomic: zone.atomic
        )
    }
}
