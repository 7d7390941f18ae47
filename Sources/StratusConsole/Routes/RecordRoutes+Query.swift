import Hummingbird
import StratusCore
import StratusModel

/// The query builder: a record type, one filter and a sort, run as records/query in the zone.
extension RecordRoutes {
    func query(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await BrowseRoutes(console: console).requireAccount(place)
        let fields = request.query
        let comparator = QueryComparator(rawValue: fields["comparator"] ?? "") ?? .equals
        let filterType = fields["filterType"] ?? FieldType.string.rawValue
        var values: [String: Any] = [
            "queryPath": "\(place.databasePath)/query", "zoneField": place.zone ?? "", "ownerField": place.owner ?? "",
            "recordType": fields["recordType"] ?? "", "filterField": fields["filterField"] ?? "", "filterValue": fields.raw("filterValue") ?? "",
            "sortField": fields["sortField"] ?? "", "descending": fields["order"] == "descending",
            "comparators": QueryComparator.allCases.map { ["name": $0.rawValue, "selected": $0 == comparator] },
            "filterTypes": FieldText.editableTypes.map { ["type": $0.rawValue, "selected": $0.rawValue == filterType] },
        ]
        if let recordType = fields["recordType"] {
            var query = Query(recordType: recordType)
            if let filterField = fields["filterField"] {
                let value = try FieldText.field(named: filterField, type: filterType, text: fields.raw("filterValue") ?? "")
                query.filterBy = [QueryFilter(comparator, field: filterField, value)]
            }
            if let sortField = fields["sortField"] {
                query.sortBy = [QuerySort(field: sortField, ascending: fields["order"] != "descending")]
            }
            _ = try await services.faultCheck(place, endpoint: "records/query", recordTypes: [recordType])
            let answer = try await services.queries.query(
                QueryRecordsRequest(query: query, zoneID: place.zoneID, resultsLimit: BrowseRoutes.pageSize, continuationMarker: fields["marker"]),
                scope: place.scope(origin: request.origin)
            )
            if let error = answer.records.first(where: { $0.error != nil })?.error { throw ConsoleFailure(error) }
            let people = try await AccountDirectory.load(services.identity)
            values["ran"] = true
            values["records"] = answer.records.compactMap(\.record).map { RecordValues.summary($0, place: place, people: people) }
            if let marker = answer.continuationMarker {
                let pairs: [(String, String?)] = ["recordType", "filterField", "comparator", "filterType", "filterValue", "sortField", "order"]
                    .map { ($0, fields.raw($0)) } + [("marker", marker)]
                values["next"] = place.zonePath("query", pairs)
            }
        }
        var chrome = BrowseRoutes(console: console).crumbs(request, place, account: account)
        chrome.crumbs.append((label: place.zone ?? "", href: place.zonePath()))
        return console.views.page("query", title: "Query \(place.zone ?? "")", values, chrome: chrome)
    }
}
