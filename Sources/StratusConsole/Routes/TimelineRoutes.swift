import HTTPTypes
import Hummingbird
import StratusCore
import StratusModel

/// The timeline: every commit of the container (who, which device, where, which records, how
/// many notifications it produced) and every fault that fired, newest first; the page's script
/// fetches newer rows every second.
struct TimelineRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/timeline", use: console.page(timeline))
        group.get("c/:container/:environment/timeline/rows", use: console.fragment(rows))
    }

    private func timeline(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let people = try await AccountDirectory.load(services.identity)
        let filter = Self.filter(request, place: place, after: 0)
        let found = services.activity.entries(filter)
        let values: [String: Any] = [
            "rows": Self.rows(found.entries, people: people), "latest": found.latest,
            "rowsPath": "\(place.base)/timeline/rows?" + QueryText.join([("account", filter.userRecordName), ("zone", filter.zoneName)]),
            "action": "\(place.base)/timeline", "zone": filter.zoneName ?? "",
            "accounts": people.choices(selected: filter.userRecordName),
        ]
        return console.views.page("timeline", title: "Timeline", values, chrome: console.chrome(request, place: place))
    }

    /// Rows newer than `after`, and the newest sequence in `X-Activity-Latest`.
    private func rows(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let after = request.query["after"].flatMap { Int64($0) } ?? 0
        let found = services.activity.entries(Self.filter(request, place: place, after: after))
        let people = try await AccountDirectory.load(services.identity)
        return ConsoleViews.liveRows(console.views.render("timelineRows", ["rows": Self.rows(found.entries, people: people)]), latest: found.latest)
    }

    static func filter(_ request: ConsoleRequest, place: Place, after: Int64) -> ActivityLog.Filter {
        ActivityLog.Filter(
            container: place.container, environment: place.environment, userRecordName: request.query["account"], zoneName: request.query["zone"], after: after, limit: 200
        )
    }

    static func rows(_ entries: [ActivityEntry], people: AccountDirectory) -> [[String: Any]] {
        entries.map { entry in
            let owner = entry.zoneID?.ownerRecordName
            let zone = entry.zoneID.map { zone in
                owner == nil || owner == entry.userRecordName ? zone.zoneName : "\(zone.zoneName) (\(people.name(owner)))"
            }
            var records = entry.recordNames.joined(separator: ", ")
            if entry.recordCount > entry.recordNames.count { records += " and \(entry.recordCount - entry.recordNames.count) more" }
            return [
                "sequence": entry.sequence, "time": FieldText.date(entry.time), "isFault": entry.kind == .fault,
                "kind": entry.kind == .fault ? "fault" : "commit", "account": people.name(entry.userRecordName),
                "device": entry.deviceID ?? "", "database": "\(entry.database.rawValue) · \(entry.environment.rawValue)",
                "zone": zone ?? "", "records": records,
                "outcome": entry.kind == .fault
                    ? "\(entry.effect ?? "") on \(entry.endpoint ?? "") (rule \(entry.faultID ?? ""))"
                    : "\(entry.notifications) notification\(entry.notifications == 1 ? "" : "s")"
                        + (entry.notifiedUserRecordNames.isEmpty ? "" : " to " + entry.notifiedUserRecordNames.map { people.name($0) }.joined(separator: ", ")),
            ]
        }
    }
}

extension ConsoleViews {
    /// A live table's newer rows (a fragment), with the newest sequence they reflect in
    /// `X-Activity-Latest` (the page's script asks for rows after it next time).
    static func liveRows(_ rows: String, latest: Int64) -> Response {
        var response = html(rows)
        response.headers[.activityLatest] = String(latest)
        return response
    }
}

extension HTTPField.Name {
    /// The newest activity sequence a timeline fragment reflects.
    static let activityLatest = HTTPField.Name("X-Activity-Latest")!
}
