import Crypto
import Foundation
import StratusModel
import StratusStore

/// records/query: filters and sorts run in SQL; pages continue with a keyset marker, so every
/// matching record comes back exactly once even while records are being added.
///
/// In the shared database a query runs in the owner's zone over the records the caller's shares
/// cover; in the public database over the records the schema's security roles let the caller read.
public struct QueryService: Sendable {
    let store: any RecordStore & ShareStore & AccountStore
    let assets: AssetService
    let access: DatabaseAccess
    let schema: SchemaCache
    let defaultZones: DefaultZones
    let configuration: CoreConfiguration

    /// One page of records matching the query, in its order.
    /// - Throws: ``CoreError``: `BAD_REQUEST` for a malformed query or a marker of another query,
    ///   `ZONE_NOT_FOUND`.
    public func query(_ request: QueryRecordsRequest, scope: RequestScope) async throws(CoreError) -> QueryRecordsResponse {
        let database = try access.database(for: scope)
        let zoneWide = request.zoneWide ?? false
        if zoneWide, database.scope == .shared {
            throw CoreError.badRequest("zoneWide queries are served in the private and public databases; in the shared database name the zone")
        }
        let resolved: ZoneTarget?
        do { resolved = try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store) } catch { throw CoreError(error) }
        guard let target = resolved else {
            let missing = await ZoneTarget.missing(request.zoneID, in: database, access: access, store: store)
            throw missing
        }
        let zone = target.zone
        let query = request.query
        guard NameRules.isValidIdentifier(query.recordType) else {
            throw CoreError.badRequest("invalid recordType '\(query.recordType)'")
        }
        let limit = try configuration.pageSize(request.resultsLimit)
        try checkSize(query)
        let fingerprint = QueryService.fingerprint(query, zone: zoneWide ? "*" : zone.name)
        var after: QueryCursor?
        if let marker = request.continuationMarker {
            guard let decoded = ContinuationMarker(encoded: marker), decoded.fingerprint == fingerprint else {
                throw CoreError.badRequest("continuationMarker does not belong to this query")
            }
            after = decoded.cursor
        }
        var storageQuery = RecordQuery(
            zone: zone, recordType: query.recordType,
            predicates: try (query.filterBy ?? []).map(QueryTranslation.predicate(for:)),
            sortKeys: try (query.sortBy ?? []).map(QueryTranslation.sortKey(for:)),
            limit: limit, after: after, names: target.visibleNames
        )
        do {
            if zoneWide {
                // Every zone of the database, the default zone included.
                if database.scope != .public { try await defaultZones.ensure(in: database) }
                let zones = try await store.zones(in: database).map { ZoneKey(database: database, name: $0.name) }
                storageQuery.zones = zones.isEmpty ? [zone] : zones
            }
            // Production always checks indexes; development only with `--require-indexes`.
            if database.environment == .production || configuration.requireIndexes {
                let ref = scope.database
                try await IndexRequirements.check(
                    storageQuery,
                    schema: schema.schema(container: ref.container, environment: ref.environment),
                    indexes: schema.indexes(container: ref.container, environment: ref.environment),
                    recordNameForTypeQueries: configuration.requireIndexes
                )
            }
            // Public database: only what the schema's security roles let the caller read (after
            // the index check: a creator-only READ filters on `___createdBy`, which needs no index).
            if let publicAccess = try await PublicAccess.resolve(scope, database: database, schema: schema) {
                try publicAccess.restrict(&storageQuery)
            }
            if zone.name == ZoneID.defaultZoneName { try await defaultZones.ensure(in: database) }
            let page = try await store.query(storageQuery)
            // Each record in its own zone's terms (a zoneWide page spans zones).
            var mappers: [String: RecordMapper] = [:]
            let links = try await assets.links(for: scope)
            for key in Set(page.zones) {
                var mapper = RecordMapper(zoneID: key == zone ? target.zoneID : access.zoneID(named: key.name, in: database), links: links)
                mapper.shares = try await ShareRenderer.load(
                    for: zip(page.records, page.zones).filter { $0.1 == key }.map(\.0), in: key, caller: scope.caller.userRecordName,
                    store: store, urlPrefix: configuration.shareURLPrefix
                )
                mappers[key.name] = mapper
            }
            let records = zip(page.records, page.zones).map { record, key -> RecordResult in
                let mapper = mappers[key.name] ?? RecordMapper(zoneID: target.zoneID)
                return .success(mapper.record(record, desiredKeys: request.desiredKeys))
            }
            return QueryRecordsResponse(
                records: records,
                continuationMarker: page.next.map { ContinuationMarker(fingerprint: fingerprint, cursor: $0).encoded }
            )
        } catch let error as CoreError {
            throw error
        } catch let error as StoreError where error.kind == .zoneNotFound {
            let missing = await ZoneTarget.missing(request.zoneID, in: database, access: access, store: store)
            throw missing
        } catch let error as StoreError {
            throw CoreError(error)
        } catch {
            throw CoreError.internal(cause: error)
        }
    }

    /// Bounds the query's filters and sorts before any work (each becomes SQL terms).
    private func checkSize(_ query: Query) throws(CoreError) {
        let limits = configuration.limits
        let filters = query.filterBy?.count ?? 0
        guard filters <= limits.filtersPerQuery else {
            throw CoreError.badRequest("too many filterBy entries: \(filters) (limit \(limits.filtersPerQuery) per query)")
        }
        let sorts = query.sortBy?.count ?? 0
        guard sorts <= limits.sortsPerQuery else {
            throw CoreError.badRequest("too many sortBy entries: \(sorts) (limit \(limits.sortsPerQuery) per query)")
        }
    }

    /// Identifies a query (and its zone), so a marker is only ever used with the query that made it.
    static func fingerprint(_ query: Query, zone: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(query)) ?? Data()
        let digest = SHA256.hash(data: data + Data(zone.utf8))
        return Secrets.hex(digest.prefix(12))
    }
}

/// The opaque `continuationMarker`: base64 of the query's fingerprint and the keyset cursor.
struct ContinuationMarker: Codable {
    var fingerprint: String
    var cursor: QueryCursor

    init(fingerprint: String, cursor: QueryCursor) {
        self.fingerprint = fingerprint
        self.cursor = cursor
    }

    init?(encoded: String) {
        guard let data = Data(base64Encoded: encoded), let marker = try? JSONDecoder().decode(ContinuationMarker.self, from: data) else {
            return nil
        }
        self = marker
    }

    var encoded: String { ((try? JSONEncoder().encode(self)) ?? Data()).base64EncodedString() }
}
