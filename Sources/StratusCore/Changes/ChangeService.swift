import StratusModel
import StratusStore

/// changes/database, changes/zone and their older aliases zones/changes and records/changes.
///
/// A database page lists each zone once, as it is now: with a token, a zone deleted and made
/// again since is listed as changed, one deleted since as deleted; without one, no deletion.
///
/// A zone page holds the latest version of each record changed after the token, tombstones
/// included, in sequence order; a token below the zone's compaction horizon is expired.
///
/// In the shared database the zones are other owners' zones the caller accepted a share of:
/// one that stops being visible (left, removed, sharing stopped, deleted) is reported deleted,
/// and a zone page holds only the records the caller's shares cover, plus, when a record moved
/// under or out of a shared root since the token, the records that entered (whole subtrees) and
/// tombstones for those that left.
public struct ChangeService: Sendable {
    let store: any RecordStore & ShareStore & AccountStore & ClientChangeTokenStore
    let assets: AssetService
    let access: DatabaseAccess
    let configuration: CoreConfiguration

    /// Zones created, changed or deleted since the database token.
    /// - Throws: ``CoreError``: `BAD_REQUEST` for a token that is not a database token.
    public func databaseChanges(_ request: DatabaseChangesRequest, scope: RequestScope) async throws(CoreError) -> DatabaseChangesResponse {
        let database = try access.database(for: scope)
        try access.requireZones(in: database, "changes/database")
        let limit = try configuration.pageSize(request.resultsLimit)
        // Without a token no deletion is listed (a zone that is gone is no change to a device
        // that never saw it); a token continuing such a fetch keeps that floor.
        var after: Int64 = 0
        var deletionsAfter: Int64?
        if let text = request.syncToken {
            guard let token = ChangeToken(encoded: text), token.kind == .database else {
                throw CoreError.badRequest("syncToken is not a database change token")
            }
            after = token.sequence
            deletionsAfter = token.deletionsAfter
        }
        do {
            if database.scope == .shared {
                let page = try await store.sharedDatabaseChanges(
                    of: database.owner, container: database.container, environment: database.environment, after: after,
                    deletionsAfter: deletionsAfter, limit: limit
                )
                let zones = page.zones.map { shared in
                    Zone(
                        zoneID: ZoneID(zoneName: shared.zone.name, ownerRecordName: shared.owner), deleted: shared.removed ? true : nil,
                        deletionReason: shared.removed ? .deleted : nil
                    )
                }
                let token = ChangeToken(database: page.throughSeq, deletionsAfter: page.deletionsAfter).encoded
                return DatabaseChangesResponse(zones: zones, syncToken: token, moreComing: page.moreComing)
            }
            let page = try await store.databaseChanges(in: database, after: after, deletionsAfter: deletionsAfter, limit: limit)
            // The default zone keeps no change history: it is never a database change.
            let zones = page.zones.filter { $0.name != ZoneID.defaultZoneName }.map { zone in
                Zone(
                    zoneID: access.zoneID(named: zone.name, in: database), deleted: zone.isDeleted ? true : nil,
                    deletionReason: zone.deletionReason
                )
            }
            let token = ChangeToken(database: page.throughSeq, deletionsAfter: page.deletionsAfter).encoded
            return DatabaseChangesResponse(zones: zones, syncToken: token, moreComing: page.moreComing)
        } catch {
            throw CoreError(error)
        }
    }

    /// One page of changes for each requested zone; a zone's failure is an entry in its place.
    public func zoneChanges(_ request: ZoneChangesRequest, scope: RequestScope) async throws(CoreError) -> ZoneChangesResponse {
        let database = try access.database(for: scope)
        try access.requireZones(in: database, "changes/zone")
        try configuration.checkCount(request.zones.count, of: "zones")
        let links = try await assets.links(for: scope)
        // The caller's device's client change tokens, for a client that asks.
        let client = scope.extensions.contains(.clientChangeTokens)
            ? scope.caller.userRecordName.map { ClientChangeTokens.client(user: $0, device: scope.deviceID) } : nil
        var results: [ZoneChangesResult] = []
        for options in request.zones {
            do throws(CoreError) {
                var page = try await page(
                    zoneID: options.zoneID, syncToken: options.syncToken,
                    resultsLimit: options.resultsLimit ?? request.resultsLimit,
                    desiredKeys: options.desiredKeys ?? request.desiredKeys,
                    recordTypes: options.desiredRecordTypes ?? request.desiredRecordTypes,
                    database: database, links: links, client: client
                )
                // `reverse`: the page's records newest change first (the page, its token and
                // `moreComing` stay the same, so paging forward is unchanged).
                if options.reverse ?? request.reverse ?? false { page.records.reverse() }
                results.append(.success(page))
            } catch {
                if error.code == .internalError || error.code == .tryAgainLater { throw error }
                results.append(.failure(ZoneError(zoneID: options.zoneID, error)))
            }
        }
        return ZoneChangesResponse(zones: results)
    }

    /// The older single-zone feed: the same page, failures at request level.
    public func recordChanges(_ request: RecordChangesRequest, scope: RequestScope) async throws(CoreError) -> RecordChangesResponse {
        let database = try access.database(for: scope)
        try access.requireZones(in: database, "records/changes")
        let page = try await page(
            zoneID: request.zoneID, syncToken: request.syncToken, resultsLimit: request.resultsLimit,
            desiredKeys: request.desiredKeys, recordTypes: request.desiredRecordTypes, database: database,
            links: try await assets.links(for: scope)
        )
        return RecordChangesResponse(records: page.records, syncToken: page.syncToken, moreComing: page.moreComing)
    }

    /// One page of a zone's changes; with `client`, the client change token that client last
    /// sent for the zone.
    private func page(
        zoneID: ZoneID, syncToken: String?, resultsLimit: Int?, desiredKeys: [String]?, recordTypes: [String]?,
        database: DatabaseKey, links: AssetLinks, client: String? = nil
    ) async throws(CoreError) -> ZoneChangesPage {
        let limit = try configuration.pageSize(resultsLimit)
        var generation: Int64?
        var after: Int64 = 0
        if let syncToken {
            guard let token = ChangeToken(encoded: syncToken), token.kind == .zone else {
                throw CoreError.badRequest("syncToken is not a zone change token")
            }
            generation = token.zoneGeneration
            after = token.sequence
        }
        do {
            guard let target = try await ZoneTarget.resolve(zoneID, in: database, access: access, store: store) else {
                let missing = await ZoneTarget.missing(zoneID, in: database, access: access, store: store)
                throw missing
            }
            // Access granted again after a removal: what the participant holds may be stale.
            if syncToken != nil, let view = target.view, after < view.accessSeq { throw CoreError.changeTokenExpired }
            let key = target.zone
            guard key.name != ZoneID.defaultZoneName else { throw CoreError.noChangesInDefaultZone }
            // A participant's feed follows what their hierarchy shares cover: records that entered
            // since the token come with it, records that left come as tombstones.
            let hierarchyShares = target.view?.grants.filter { $0.covered != nil }.map(\.share.record.name) ?? []
            let page = try await store.changes(
                in: key, generation: generation, after: after, recordTypes: recordTypes, names: target.visibleNames,
                shares: hierarchyShares, limit: limit
            )
            var mapper = RecordMapper(zoneID: target.zoneID, links: links)
            mapper.shares = try await ShareRenderer.load(
                for: page.records, in: key, caller: database.owner, store: store, urlPrefix: configuration.shareURLPrefix
            )
            let token = ChangeToken(kind: .zone, zoneGeneration: page.zone.id, sequence: page.throughSeq).encoded
            var answer = ZoneChangesPage(
                zoneID: mapper.zoneID, records: page.records.map { mapper.record($0, desiredKeys: desiredKeys) },
                syncToken: token, moreComing: page.moreComing
            )
            if let client { answer.clientChangeToken = try await store.clientChangeToken(zone: page.zone.id, client: client) }
            return answer
        } catch let error as CoreError {
            throw error
        } catch let error as StoreError where error.kind == .zoneNotFound {
            let missing = await ZoneTarget.missing(zoneID, in: database, access: access, store: store)
            throw missing
        } catch let error as StoreError {
            throw CoreError(error)
        } catch {
            throw CoreError.internal(cause: error)
        }
    }
}
