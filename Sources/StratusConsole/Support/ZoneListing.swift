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
            let schema = try await services.schema.describe(container: place.container, environment: place.environment)
            var records: [Record] = []
            for type in schema.recordTypes.prefix(typeLimit) where records.count < limit {
                let query = QueryRecordsRequest(query: Query(recordType: type.name), zoneID: zoneID, resultsLimit: limit - records.count)
                // A type this database cannot query (an index missing in production) is left out.
                guard let answer = try? await services.queries.query(query, scope: scope) else { continue }
                records += answer.records.compactMap(\.record)
            }
            return (records, nil)
        }
        _ = try await services.faultCheck(place, endpoint: "records/changes")
        let answer = try await services.changes.recordChanges(RecordChangesRequest(zoneID: zoneID, syncToken: page, resultsLimit: limit), scope: scope)
        return (answer.records.filter { $0.deleted != true }, answer.moreComing ? answer.syncToken : nil)
    }
}
