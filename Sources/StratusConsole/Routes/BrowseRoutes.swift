import Foundation
import Hummingbird
import StratusCore
import StratusModel

/// Browsing as an account: the accounts of a container, an account's databases, a database's
/// zones, a zone's records (a page at a time, sorted) and one record.
struct BrowseRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    /// Records per zone page.
    static let pageSize = 50

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/u/:user", use: console.page(account))
        group.get("c/:container/:environment/u/:user/:database", use: console.page(database))
        group.get("c/:container/:environment/u/:user/:database/zone", use: console.page(zone))
        group.get("c/:container/:environment/u/:user/:database/record", use: console.page(record))
        group.post("containers", use: console.action(createContainer))
    }

    /// A container of your own (`iCloud.com.you.App`), with a development API token shown once
    /// (`stratus container create` also records it in `dev-credentials.json`).
    private func createContainer(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let identifier = try request.form.required("identifier", label: "the container identifier")
            .trimmingCharacters(in: .whitespaces)
        guard IdentityService.isValidContainerIdentifier(identifier) else {
            throw ConsoleFailure(
                "A container identifier is ASCII letters, digits, '.', '-' and '_' (like iCloud.com.example.App), not '\(identifier)'."
            )
        }
        let existed = try await services.identity.containerExists(identifier)
        try await services.identity.createContainer(identifier)
        let apiToken = try await services.identity.createAPIToken(container: identifier, environment: .development)
        let next = "/console?" + QueryText.join([("container", identifier), ("environment", "development")])
        let what = existed ? "Container \(identifier) already existed; a new" : "Container \(identifier) created. Its"
        return ("\(what) development API token (shown once): \(apiToken)", next)
    }

    /// The signed-in home: the containers, and the accounts to act as.
    func home(_ request: ConsoleRequest) async throws -> Response {
        let containers = try await services.identity.containers(limit: 1_000)
        let container = request.query["container"].flatMap { containers.contains($0) ? $0 : nil } ?? containers.first ?? DevSeeder.container
        let environment = ContainerEnvironment(rawValue: request.query["environment"] ?? "") ?? .development
        let place = Place(container: container, environment: environment)
        let people = try await AccountDirectory.load(services.identity)
        let values: [String: Any] = [
            "containers": containers.map { name in
                ["name": name, "current": name == container,
                 "href": "/console?" + QueryText.join([("container", name), ("environment", environment.rawValue)])]
            },
            "environments": ContainerEnvironment.allCases.map { env in
                ["name": env.rawValue, "current": env == environment,
                 "href": "/console?" + QueryText.join([("container", container), ("environment", env.rawValue)])]
            },
            "accounts": people.accounts.map { account in
                ["label": AccountDirectory.label(account), "userRecordName": account.userRecordName,
                 "href": Place(container: container, environment: environment, user: account.userRecordName).accountPath]
            },
        ]
        return console.views.page("home", title: "Accounts", values, chrome: console.chrome(request, place: place))
    }

    private func account(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await requireAccount(place)
        let values: [String: Any] = [
            "name": AccountDirectory.label(account), "userRecordName": account.userRecordName,
            "databases": DatabaseScope.allCases.map { scope in
                ["label": scope.rawValue.capitalized, "href": Place(
                    container: place.container, environment: place.environment, user: place.user, scope: scope
                ).databasePath]
            },
            "acceptPath": "\(place.accountPath)/accept", "back": place.accountPath,
        ]
        return console.views.page(
            "account", title: AccountDirectory.name(account), values, chrome: crumbs(request, place, account: account)
        )
    }

    private func database(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await requireAccount(place)
        let people = try await AccountDirectory.load(services.identity)
        _ = try await services.faultCheck(place, endpoint: "zones/list")
        let zones = try await services.zones.list(scope: place.scope(origin: request.origin))
        let scope = place.scope ?? .private
        let values: [String: Any] = [
            "zones": zones.zones.compactMap(\.value).map { zone -> [String: Any] in
                var zonePlace = place
                zonePlace.zone = zone.zoneID.zoneName
                zonePlace.owner = zone.zoneID.ownerRecordName ?? place.owner
                var item: [String: Any] = ["name": zone.zoneID.zoneName, "href": zonePlace.zonePath()]
                if scope == .shared { item["owner"] = people.name(zone.zoneID.ownerRecordName) }
                return item
            },
            "mayCreateZones": scope == .private, "createPath": "\(place.databasePath)/zones", "back": place.databasePath,
            "isShared": scope == .shared,
        ]
        let title = "\(AccountDirectory.name(account)) · \(scope.rawValue.capitalized)"
        return console.views.page("database", title: title, values, chrome: crumbs(request, place, account: account))
    }

    private func zone(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await requireAccount(place)
        let people = try await AccountDirectory.load(services.identity)
        let page = try await ZoneListing.records(
            in: place, page: request.query["page"], limit: Self.pageSize, services: services, origin: request.origin
        )
        var records = page.records.map { RecordValues.summary($0, place: place, people: people) }
        let sort = request.query["sort"] ?? "name"
        records.sort { left, right in
            switch sort {
            case "type": return (left["type"] as? String ?? "") < (right["type"] as? String ?? "")
            case "modified": return (left["modifiedAt"] as? Int64 ?? 0) > (right["modifiedAt"] as? Int64 ?? 0)
            default: return (left["name"] as? String ?? "") < (right["name"] as? String ?? "")
            }
        }
        let scope = place.scope ?? .private
        var values: [String: Any] = [
            "zone": place.zone ?? "", "records": records, "isEmpty": records.isEmpty,
            "sorts": [("name", "Name"), ("type", "Type"), ("modified", "Last modified")].map { key, label in
                ["key": key, "label": label, "selected": key == sort]
            },
            "zoneField": place.zone ?? "", "ownerField": place.owner ?? "", "sortPath": place.zonePath(),
            "savePath": "\(place.databasePath)/records", "zonesPath": "\(place.databasePath)/zones",
            "toolsPath": "\(place.databasePath)/zone-tools", "sharePath": "\(place.databasePath)/share",
            "queryPath": place.zonePath("query"), "back": place.zonePath(), "databasePath": place.databasePath,
            "isOwner": scope == .private, "isPrivate": scope == .private, "isPublic": scope == .public,
            "zoneShare": place.sharePath(ShareNames.zoneWideShare),
            "participants": SharePermission.choices,
        ].merging(SaveFormValues.values()) { current, _ in current }
        // Mustache renders a section for any string, even an empty one: absent means no.
        if let next = page.nextPage { values["next"] = place.zonePath("zone", [("page", next), ("sort", sort)]) }
        let title = "\(place.zone ?? "") · \(AccountDirectory.name(account)) · \(scope.rawValue.capitalized)"
        return console.views.page("zone", title: title, values, chrome: crumbs(request, place, account: account))
    }

    private func record(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let account = try await requireAccount(place)
        let name = try request.query.required("name", label: "the record name")
        let people = try await AccountDirectory.load(services.identity)
        _ = try await services.faultCheck(place, endpoint: "records/lookup")
        let found = try await services.records.lookup(
            LookupRecordsRequest(records: [.init(recordName: name)], zoneID: place.zoneID), scope: place.scope(origin: request.origin)
        )
        guard let result = found.records.first else { throw ConsoleFailure("Record \(name) was not found.") }
        if let error = result.error { throw ConsoleFailure(error) }
        guard let record = result.record else { throw ConsoleFailure("Record \(name) was not found.") }
        var values = RecordValues.detail(record, place: place, people: people)
        values["savePath"] = "\(place.databasePath)/records"
        values["sharePath"] = "\(place.databasePath)/share"
        values["zoneField"] = place.zone ?? ""
        values["ownerField"] = place.owner ?? ""
        values["back"] = place.recordPath(name)
        values["zoneBack"] = place.zonePath()
        values["mayShare"] = place.scope == .private && record.share == nil && record.recordType != ShareNames.recordType
        values["participants"] = SharePermission.choices
        if record.recordType == ShareNames.recordType { values["shareHref"] = place.sharePath(name) }
        let title = "\(name) · \(AccountDirectory.name(account))"
        var chrome = crumbs(request, place, account: account)
        chrome.crumbs.append((label: place.zone ?? "", href: place.zonePath()))
        return console.views.page("record", title: title, values, chrome: chrome)
    }

    // MARK: - Helpers

    /// The acting account; refused when the server has no such account or container.
    func requireAccount(_ place: Place) async throws -> AccountInfo {
        guard try await services.identity.containerExists(place.container) else {
            throw ConsoleFailure("There is no container \(place.container) on this server.")
        }
        guard let user = place.user, let account = try await services.identity.account(userRecordName: user) else {
            throw ConsoleFailure("There is no such account.")
        }
        return account
    }

    /// The layout with breadcrumbs down to the database.
    func crumbs(_ request: ConsoleRequest, _ place: Place, account: AccountInfo) -> PageChrome {
        var crumbs: [(label: String, href: String)] = [(label: place.container, href: "/console?" + QueryText.join([
            ("container", place.container), ("environment", place.environment.rawValue),
        ]))]
        crumbs.append((label: AccountDirectory.name(account), href: place.accountPath))
        if let scope = place.scope { crumbs.append((label: scope.rawValue.capitalized, href: place.databasePath)) }
        return console.chrome(request, place: place, crumbs: crumbs)
    }
}

extension SharePermission {
    /// The permissions a participant can be given, for a form's choices.
    static var choices: [[String: String]] {
        [["value": SharePermission.readWrite.rawValue, "label": "Read and write"],
         ["value": SharePermission.readOnly.rawValue, "label": "Read only"]]
    }
}
