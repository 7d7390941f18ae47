import Crypto
import Foundation
import StratusModel
import StratusStore

/// records/query: filters and sorts run in SQL; pages continue with a keyset marker, so every
/// matching record comes back exactly once even while records are being added.
///
/// In the shared database a query runs in the owner's zone over the records the caller's shares
/// cover.
public struct QueryService: Sendable {
    let store: any RecordStore & ShareStore & IdentityStore
    let access: DatabaseAccess
    let schema: SchemaCache
    let defaultZones: DefaultZones
    let configuration: CoreConfiguration

    /// One page of records matching the query, in its order.
    /// - Throws: ``CoreError``: `BAD_REQUEST` for a malformed query or a marker of another query,
    ///   `ZONE_NOT_FOUND`.
    public func query(_ request: QueryRecordsRequest, scope: RequestScope) async throws(CoreError) -> QueryRecordsResponse {
        let database = try access.database(for: scope)
        let resolved: ZoneTarget?
        do { resolved = try await ZoneTarget.resolve(request.zoneID, in: database, access: access, store: store) } catch { throw CoreError(error) }
        guard let target = resolved else { throw CoreError(.zoneNotFound, "Zone not found") }
        let zone = target.zone
        let query = request.query
        guard NameRules.isValidIdentifier(query.recordType) else {
            throw CoreError.badRequest("invalid recordType '\(query.recordType)'")
        }
        let limit = try configuration.pageSize(request.resultsLimit)
        try checkSize(query)
        let fingerprint = QueryService.fingerprint(query, zone: zone.name)
        var after: QueryCursor?
        if let marker = request.continuationMarker {
            guard let decoded = ContinuationMarker(encoded: marker), decoded.fingerprint == fingerprint else {
                throw CoreError.badRequest("continuationMarker does not belong to this query")
            }
            after = decoded.cursor
        }
        let storageQuery = RecordQuery(
            zone: zone, recordType: query.recordType,
            predicates: try (query.filterBy ?? []).map(QueryTranslation.predicate(for:)),
            sortKeys: try (query.sortBy ?? []).map(QueryTranslation.sortKey(for:)),
            limit: limit, after: after, names: target.visibleNames
        )
        do {
            if database.environment == .production {
                let ref = scope.database
                try await IndexRequirements.check(
                    storageQuery,
                    schema: schema.schema(container: ref.container, environment: ref.environment),
                    indexes: schema.indexes(container: ref.container, environment: ref.environment)
                )
            }
            if zone.name == ZoneID.defaultZoneName { try await defaultZones.ensure(in: database) }
            let page = try await store.query(storageQuery)
            var mapper = RecordMapper(zoneID: target.zoneID)
            mapper.shares = try await ShareRenderer.load(
                for: page.records, in: zone, caller: scope.caller.userRecordName, store: store, urlPrefix: configuration.shareURLPrefix
            )
            return QueryRecordsResponse(
                records: page.records.map { .success(mapper.record($0, desiredKeys: request.desiredKeys)) },
                continuationMarker: page.next.map { ContinuationMarker(fingerprint: fingerprint, cursor: $0).encoded }
            )
        } catch let error as CoreError {
            throw error
        } catch let error as StoreError where error.kind == .zoneNotFound {
            throw CoreError(.zoneNotFound, "Zone not found")
        } catch let error as StoreError {
            throw CoreError(error)
        } catch {
            throw CoreError(.internalError, "Internal error")
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
