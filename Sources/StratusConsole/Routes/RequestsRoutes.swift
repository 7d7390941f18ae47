import Foundation
import HTTPTypes
import Hummingbird
import StratusCore
import StratusModel

/// The Requests view beside the timeline: every CKWS request the server answered lately, as the
/// request log wrote it — path, status, account, device, database, zones, the error code and
/// per-item errors, duration — filtered by account, zone or errors; the page's script fetches
/// newer rows every second.
struct RequestsRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/requests", use: console.page(requests))
        group.get("c/:container/:environment/requests/rows", use: console.fragment(rows))
    }

    private func requests(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let people = try await AccountDirectory.load(services.identity)
        let filter = Self.filter(request, place: place, after: 0)
        let found = services.requests.entries(filter)
        let query = QueryText.join([("account", filter.userRecordName), ("zone", filter.zoneName), ("errors", filter.errorsOnly ? "1" : nil)])
        let values: [String: Any] = [
            "rows": Self.rows(found.records, people: people), "latest": found.latest,
            "rowsPath": "\(place.base)/requests/rows?" + query, "action": "\(place.base)/requests", "zone": filter.zoneName ?? "",
            "errorsOnly": filter.errorsOnly,
            "accounts": people.choices(selected: filter.userRecordName),
        ]
        return console.views.page("requests", title: "Requests", values, chrome: console.chrome(request, place: place))
    }

    /// Rows newer than `after`, and the newest sequence in `X-Activity-Latest`.
    private func rows(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let after = request.query["after"].flatMap { Int64($0) } ?? 0
        let found = services.requests.entries(Self.filter(request, place: place, after: after))
        let people = try await AccountDirectory.load(services.identity)
        return ConsoleViews.liveRows(console.views.render("requestRows", ["rows": Self.rows(found.records, people: people)]), latest: found.latest)
    }

    static func filter(_ request: ConsoleRequest, place: Place, after: Int64) -> RecentRequests.Filter {
        RecentRequests.Filter(
            container: place.container, environment: place.environment, userRecordName: request.query["account"].flatMap { $0.isEmpty ? nil : $0 },
            zoneName: request.query["zone"].flatMap { $0.isEmpty ? nil : $0 }, errorsOnly: request.query["errors"] == "1", after: after
        )
    }

    static func rows(_ records: [RequestRecord], people: AccountDirectory) -> [[String: Any]] {
        records.map { record in
            var errors = record.itemErrors.sorted { $0.key < $1.key }.map { "\($0.value) × \($0.key)" }
            if let code = record.errorCode { errors.insert(code, at: 0) }
            // The endpoint is what tells requests apart: the path after the database segment.
            let endpoint = record.path.split(separator: "/").dropFirst(5).joined(separator: "/")
            return [
                "sequence": record.sequence, "time": FieldText.date(record.time), "request": "\(record.method) \(endpoint)",
                "status": record.status, "failed": record.hasErrors, "account": record.userRecordName.map { people.name($0) } ?? "anonymous",
                "device": record.deviceID ?? "", "database": record.database?.rawValue ?? "", "zones": record.zones.joined(separator: ", "),
                "errors": errors.joined(separator: ", "), "duration": String(format: "%.1f", record.durationMilliseconds),
            ]
        }
    }
}
