import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import StratusCore
import StratusModel

/// What moves on its own: two accounts side by side, each pane refreshed when its account's
/// push feed says something changed (the console watches through a push token and a database
/// subscription of that account, like a device would).
struct LiveRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    /// Records a pane shows.
    static let paneRecords = 200

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/side-by-side", use: console.page(sideBySide))
        group.get("c/:container/:environment/pane", use: console.fragment(pane))
        group.post("c/:container/:environment/pane", use: console.fragment(savePane))
        group.post("c/:container/:environment/watch", use: console.fragment(watch))
    }

    // MARK: - Side by side

    private func sideBySide(_ request: ConsoleRequest) async throws -> Response {
        let base = try request.place()
        let people = try await AccountDirectory.load(services.identity)
        let fields = request.query
        let zoneNames = try await knownZones(base, people: people, origin: request.origin)
        var panes: [[String: Any]] = []
        for (side, label) in [("l", "Left"), ("r", "Right")] {
            let user = fields["\(side)u"], scope = DatabaseScope(rawValue: fields["\(side)s"] ?? "") ?? .private
            var pane: [String: Any] = [
                "side": side, "label": label, "zone": fields["\(side)z"] ?? "", "zoneNames": zoneNames,
                "accounts": people.choices(selected: user),
                "owners": people.accounts.map { ["value": $0.userRecordName, "label": AccountDirectory.name($0), "selected": $0.userRecordName == fields["\(side)o"]] },
                "databases": DatabaseScope.allCases.map { ["value": $0.rawValue, "label": $0.rawValue.capitalized, "selected": $0 == scope] },
            ]
            if let user {
                let place = Self.panePlace(base, user: user, scope: scope, zone: fields["\(side)z"], owner: fields["\(side)o"])
                let query = Self.paneQuery(place, side: side)
                pane["open"] = [
                    "src": "\(base.base)/pane?\(query)", "watch": "\(base.base)/watch", "user": user, "database": scope.rawValue,
                    "title": "\(people.name(user)) · \(scope.rawValue.capitalized)\(place.zone.map { " · \($0)" } ?? "")",
                    "body": try await paneBody(place, side: side, request: request, people: people, notice: nil),
                ]
            }
            panes.append(pane)
        }
        let values: [String: Any] = [
            "panes": panes, "action": "\(base.base)/side-by-side", "anyOpen": panes.contains { $0["open"] != nil },
        ]
        return console.views.page("sideBySide", title: "Side by side", values, chrome: console.chrome(request, place: base))
    }

    /// The zones of every account's private database (what a pane may open: the zone itself, or
    /// a participant's view of it in their shared database), by name.
    private func knownZones(_ base: Place, people: AccountDirectory, origin: String) async throws -> [String] {
        var names: Set<String> = []
        for account in people.accounts {
            let place = Place(container: base.container, environment: base.environment, user: account.userRecordName, scope: .private)
            let zones = try await services.zones.list(scope: place.scope(origin: origin))
            names.formUnion(zones.zones.compactMap { $0.value?.zoneID.zoneName })
        }
        return names.sorted()
    }

    private func pane(_ request: ConsoleRequest) async throws -> Response {
        let place = try Self.panePlace(request)
        let people = try await AccountDirectory.load(services.identity)
        return ConsoleViews.html(try await paneBody(place, side: Self.side(request), request: request, people: people, notice: nil))
    }

    /// Saves a record from a pane's form and answers the pane again, with what happened.
    private func savePane(_ request: ConsoleRequest) async throws -> Response {
        let place = try Self.panePlace(request)
        let people = try await AccountDirectory.load(services.identity)
        var notice: ConsoleSession.Notice
        do {
            let (operation, text) = try await RecordRoutes.operation(from: request.form, place: place, services: services, origin: request.origin)
            try await RecordRoutes.modify(operation, place: place, services: services, origin: request.origin)
            notice = .init(text: text, isError: false)
        } catch {
            notice = .init(text: ConsoleFailure.from(error).message, isError: true)
        }
        return ConsoleViews.html(try await paneBody(place, side: Self.side(request), request: request, people: people, notice: notice))
    }

    /// Which pane (`l` or `r`): its form fields' ids differ even when both panes show the same place.
    static func side(_ request: ConsoleRequest) -> String { request.query["side"] == "r" ? "r" : "l" }

    private func paneBody(
        _ place: Place, side: String, request: ConsoleRequest, people: AccountDirectory, notice: ConsoleSession.Notice?
    ) async throws -> String {
        var values: [String: Any] = [
            "formToken": request.session.formToken, "paneForm": true, "savePath": "\(place.base)/pane?\(Self.paneQuery(place, side: side))",
            "zoneField": place.zone ?? "", "ownerField": place.owner ?? "", "idPrefix": "pane-\(side)-",
            "zoneHref": place.zonePath(),
        ].merging(SaveFormValues.values()) { current, _ in current }
        if let notice { values["notice"] = ["text": notice.text, "isError": notice.isError] }
        if place.zoneID != nil {
            let page = try await ZoneListing.records(in: place, page: nil, limit: Self.paneRecords, services: services, origin: request.origin)
            values["records"] = page.records
                .sorted { ($0.modified?.timestamp ?? 0) > ($1.modified?.timestamp ?? 0) }
                .map { RecordValues.summary($0, place: place, people: people) }
            values["hasZone"] = true
        } else {
            let zones = try await services.zones.list(scope: place.scope(origin: request.origin))
            values["zones"] = zones.zones.compactMap(\.value).map { $0.zoneID.zoneName }
        }
        return console.views.render("pane", values)
    }

    /// Starts (once per session, account and database) the push watch of a pane: a push token of
    /// the account and its database subscription; answers the token's event stream URL. The public
    /// database has no database subscriptions: 204, and the pane polls.
    private func watch(_ request: ConsoleRequest) async throws -> Response {
        let base = try request.place()
        let user = try request.form.required("user", label: "the account")
        let scope = DatabaseScope(rawValue: request.form["database"] ?? "") ?? .private
        guard scope != .public else { return Response(status: .noContent) }
        guard try await services.identity.account(userRecordName: user) != nil else { throw ConsoleFailure("There is no such account.") }
        let key = "\(user)/\(base.container)/\(base.environment.rawValue)"
        // Not the console's writing device: its own writes must reach the pane too.
        let database = DatabaseRef(container: base.container, environment: base.environment, scope: scope)
        let watching = RequestScope(database: database, caller: .user(userRecordName: user), origin: request.origin)
        var url = console.sessions.watchToken(key, of: request.session.id)
        if url == nil {
            let created = try await services.pushTokens.create(PushTokenRequest(), scope: watching) { token in
                "\(request.origin)/stratus/v1/push/\(token)"
            }
            url = created.webcourierURL
            console.sessions.setWatchToken(created.webcourierURL, for: key, of: request.session.id)
        }
        // A database subscription of the account's own (a device's) already notifies the token; only
        // an account without one gets the console's, taken away again at sign-out.
        let existing = try await services.subscriptions.list(scope: watching).subscriptions.compactMap(\.value)
        if !existing.contains(where: { $0.kind == .database }) {
            let subscription = Subscription(subscriptionID: Self.subscriptionID(scope), kind: .database)
            let answer = try await services.subscriptions.modify(ModifySubscriptionsRequest(operations: [.init(.create, subscription)]), scope: watching)
            if answer.subscriptions.first?.value != nil {
                console.sessions.addSubscription(.init(
                    user: user, container: base.container, environment: base.environment, scope: scope,
                    subscriptionID: subscription.subscriptionID
                ), of: request.session.id)
            }
        }
        let body = try JSONEncoder().encode(["events": "\(url ?? "")/events"])
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func subscriptionID(_ scope: DatabaseScope) -> String { "stratus-console-\(scope.rawValue)" }

    /// Takes away the subscriptions a session added to accounts (at sign-out).
    static func removeSubscriptions(of session: ConsoleSession, services: StratusServices) async {
        for added in session.addedSubscriptions {
            let scope = RequestScope(
                database: DatabaseRef(container: added.container, environment: added.environment, scope: added.scope),
                caller: .user(userRecordName: added.user)
            )
            let delete = ModifySubscriptionsRequest(operations: [.init(.delete, Subscription(subscriptionID: added.subscriptionID, kind: .database))])
            _ = try? await services.subscriptions.modify(delete, scope: scope)
        }
    }

    static func panePlace(_ base: Place, user: String, scope: DatabaseScope, zone: String?, owner: String?) -> Place {
        Place(
            container: base.container, environment: base.environment, user: user, scope: scope, zone: zone,
            owner: scope == .private ? user : scope == .public ? nil : owner
        )
    }

    static func panePlace(_ request: ConsoleRequest) throws(ConsoleFailure) -> Place {
        let base = try request.place()
        let fields = request.query
        let user = try fields.required("u", label: "the account")
        return panePlace(base, user: user, scope: DatabaseScope(rawValue: fields["s"] ?? "") ?? .private, zone: fields["z"], owner: fields["o"])
    }

    static func paneQuery(_ place: Place, side: String) -> String {
        QueryText.join([("u", place.user), ("s", place.scope?.rawValue), ("z", place.zone), ("o", place.owner), ("side", side)])
    }
}
