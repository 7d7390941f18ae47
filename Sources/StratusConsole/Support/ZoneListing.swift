import StratusCore
import StratusModel

/// A zone's records for a page: a custom zone's through records/changes (a page at a time,
/// continued by its sync token); the default zone, which has no change feed, through one
/// records/query per record type the schema knows.
enum ZoneListing {
    /// Record types queried in a default zone.
    static let typeLimit = 25

    static func records(
        in place: Place, page: String?, limit: Int, services: StratusServices, origin: String
    ) async throws -> (records: [Record], nextPage: String?) {
        guard let zoneID = place.zoneID else { throw ConsoleFailure("Choose a zone.") }
        let scope = try place.scope(origin: origin)
        if zoneID.isDefaultZone {
            return try await defaultZone(zoneID, scope: scope, page: page, limit: limit, place: place, services: services)
        }
        _ = try await services.faultCheck(place, endpoint: "records/changes")
        let answer = try await services.changes.recordChanges(RecordChangesRequest(zoneID: zoneID, syncToken: page, resultsLimit: limit), scope: scope)
        return (answer.records.filter { $0.deleted != true }, answer.moreComing ? answer.syncToken : nil)
    }

    /// A default zone a page at a time: record type by record type, each through its query's
    /// continuation marker. The page token is `typeIndex.marker`.
    private static func defaultZone(
        _ zoneID: ZoneID, scope: RequestScope, page: String?, limit: Int, place: Place, services: StratusServices
    ) async throws -> (records: [Record], nextPage: String?) {
        let types = try await services.schema.describe(container: place.container, environment: place.environment).recordTypes
            .prefix(typeLimit).map(\.name)
        var index = 0
        var marker: String?
        if let page, let dot = page.firstIndex(of: "."), let start = Int(page[..<dot]) {
            index = start
            let rest = String(page[page.index(after: dot)...])
            marker = rest.isEmpty ? nil : rest
        }
        var records: [Record] = []
        while index < types.count {
            let query = QueryRecordsRequest(
                query: Query(recordType: types[index]), zoneID: zoneID, resultsLimit: limit - records.count, continuationMarker: marker
            )
            // A type this database cannot query (an index missing in production) is left out.
            let answer = try? await services.queries.query(query, scope: scope)
            records += answer?.records.compactMap(\.record) ?? []
            if let next = answer?.continuationMarker {
                if records.count >= limit { return (records, "\(index).\(next)") }
                marker = next
                continue
            }
            index += 1
            marker = nil
            if records.count >= limit { return (records, index < types.count ? "\(index)." : nil) }
        }
        return (records, nil)
    }
}
