import Hummingbird
import StratusCore
import StratusModel

/// The operator's side: the schema learned in development (add an index, deploy to
/// production; its `.ckdb` file is `SchemaFileRoutes`), fault rules (list, add, remove, clear), and
/// accounts with their web auth tokens.
struct ControlRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/schema", use: console.page(schema))
        group.post("c/:container/:environment/schema", use: console.action(changeSchema))
        group.get("c/:container/:environment/faults", use: console.page(faults))
        group.post("c/:container/:environment/faults", use: console.action(changeFaults))
        group.get("c/:container/:environment/accounts", use: console.page(accounts))
        group.post("c/:container/:environment/accounts", use: console.action(changeAccounts))
    }

    private func schema(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let schema = try await services.schema.describe(container: place.container, environment: place.environment)
        let values: [String: Any] = [
            "recordTypes": schema.recordTypes.map { type in
                ["name": type.name, "fields": type.fields.map { field in
                    ["name": field.name, "type": field.type?.rawValue ?? "", "indexes": field.indexes.map(\.rawValue).joined(separator: ", ")]
                }]
            },
            "kinds": IndexKind.allCases.map { ["kind": $0.rawValue] }, "action": "\(place.base)/schema", "back": "\(place.base)/schema",
            "exportPath": "\(place.base)/schema/export", "importAction": "\(place.base)/schema/import",
            "environmentName": place.environment.rawValue,
            "isDevelopment": place.environment == .development,
            "other": "/console/c/\(QueryText.encode(place.container))/\(place.environment == .development ? "production" : "development")/schema",
            "otherName": place.environment == .development ? "production" : "development",
        ]
        return console.views.page("schema", title: "Schema · \(place.environment.rawValue)", values, chrome: console.chrome(request, place: place))
    }

    private func changeSchema(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        let form = request.form
        if form["operation"] == "deploy" {
            _ = try await services.schema.deploy(container: place.container)
            return ("Development schema deployed to production.", "\(place.base)/schema")
        }
        let kind = IndexKind(rawValue: form["index"] ?? "") ?? .queryable
        let change = IndexChangeRequest(
            container: place.container, environment: place.environment, recordType: try form.required("recordType", label: "the record type"),
            fieldName: try form.required("field", label: "the field"), index: kind, present: form["operation"] != "remove"
        )
        _ = try await services.schema.changeIndex(change)
        return ("\(kind.rawValue) index on \(change.recordType).\(change.fieldName) \(change.present == false ? "removed" : "added").", "\(place.base)/schema")
    }

    private func faults(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let list = services.faults.list()
        let people = try await AccountDirectory.load(services.identity)
        var values: [String: Any] = [
            "rules": list.faults.map { rule in
                let match = rule.match
                let conditions = [
                    match.endpoint, match.database?.rawValue, match.userRecordName.map { people.name($0) }, match.zoneName.map { "zone \($0)" },
                    match.recordType.map { "type \($0)" }, match.container, match.environment?.rawValue,
                ].compactMap { $0 }
                return [
                    "faultID": rule.faultID, "match": conditions.isEmpty ? "every request" : conditions.joined(separator: ", "),
                    "action": rule.action.summary, "matched": rule.matched, "fired": rule.fired, "retired": rule.retired,
                    "limits": [rule.count.map { "\($0) times" }, rule.probability.map { "p=\($0)" }].compactMap { $0 }.joined(separator: ", "),
                ] as [String: Any]
            },
            "accounts": people.accounts.map { ["value": $0.userRecordName, "label": AccountDirectory.label($0)] },
            "postPath": "\(place.base)/faults", "back": "\(place.base)/faults",
            "codes": ["THROTTLED", "SERVICE_UNAVAILABLE", "REQUEST_RATE_LIMITED", "ZONE_BUSY", "QUOTA_EXCEEDED", "INTERNAL_ERROR", "CONFLICT"].map { ["code": $0] },
        ]
        if let buggify = list.buggify {
            values["buggify"] = "rate \(buggify.rate), seed \(buggify.seed): \(buggify.fired) of \(buggify.drawn) requests failed"
        }
        return console.views.page("faults", title: "Faults", values, chrome: console.chrome(request, place: place))
    }

    private func changeFaults(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        let form = request.form
        let next = "\(place.base)/faults"
        switch form["operation"] {
        case "clear":
            return ("\(services.faults.clear()) rules cleared.", next)
        case "remove":
            let id = try form.required("faultID", label: "the rule")
            guard services.faults.remove(id) else { throw ConsoleFailure("NOT_FOUND: no fault rule \(id)") }
            return ("Rule \(id) removed.", next)
        default:
            let code = ServerErrorCode(rawValue: form["code"] ?? "THROTTLED")
            let action: FaultAction
            switch form["effect"] {
            case "itemError": action = .itemError(code)
            case "latency": action = .latency(milliseconds: try Self.integer(form["latencyMs"], "the latency") ?? 1000)
            case "drop": action = .dropResponseAfterCommit
            default: action = .error(code, retryAfter: try Self.integer(form["retryAfter"], "retry after"))
            }
            let match = FaultMatch(
                container: place.container, environment: place.environment, database: form["database"].flatMap(DatabaseScope.init(rawValue:)),
                endpoint: form["endpoint"], userRecordName: form["account"], zoneName: form["zone"], recordType: form["recordType"]
            )
            let rule = try services.faults.add(CreateFaultRequest(
                match: match, action: action, count: try Self.integer(form["count"], "the count"),
                probability: try form["probability"].map { text throws(ConsoleFailure) in
                    guard let value = Double(text) else { throw ConsoleFailure("The probability must be a number.") }
                    return value
                }
            ))
            return ("Rule \(rule.faultID) added: \(rule.action.summary).", next)
        }
    }

    private func accounts(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let people = try await AccountDirectory.load(services.identity)
        let values: [String: Any] = [
            "accounts": people.accounts.map { ["label": AccountDirectory.label($0), "value": $0.userRecordName, "href": Place(
                container: place.container, environment: place.environment, user: $0.userRecordName
            ).accountPath] },
            "action": "\(place.base)/accounts", "back": "\(place.base)/accounts", "container": place.container,
            "environment": place.environment.rawValue,
        ]
        return console.views.page("accounts", title: "Accounts and tokens", values, chrome: console.chrome(request, place: place))
    }

    private func changeAccounts(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        let form = request.form
        let next = "\(place.base)/accounts"
        switch form["operation"] {
        case "revoke":
            let revoked = try await services.identity.revoke(webAuthToken: try form.required("token", label: "the web auth token"))
            return ("Token of \(revoked.userRecordName) revoked: its requests now answer AUTHENTICATION_REQUIRED.", next)
        case "quota":
            let user = try form.required("account", label: "the account")
            let bytes = try form["bytes"].map { text throws(ConsoleFailure) -> Int64 in
                guard let value = Int64(text) else { throw ConsoleFailure("The quota must be a whole number of bytes.") }
                return value
            }
            let quota = try await services.admin.setQuota(SetQuotaRequest(
                container: place.container, environment: place.environment, userRecordName: user, bytes: bytes
            ))
            return ("Quota \(quota.bytes.map { "\($0) bytes" } ?? "lifted"); \(quota.usedBytes) bytes used.", next)
        case "apiToken":
            let token = try await services.identity.createAPIToken(
                container: place.container, environment: place.environment,
                settings: APITokenSettings(allowedOrigins: Self.origins(form["origins"]), signInCallbackURL: form["callback"])
            )
            return ("API token for \(place.container) (\(place.environment.rawValue), shown once): \(token)", next)
        case "apiTokenSettings":
            let info = try await services.identity.updateAPIToken(UpdateAPITokenRequest(
                apiToken: try form.required("apiToken", label: "the API token"), allowedOrigins: Self.origins(form["origins"]),
                signInCallbackURL: form["callback"] ?? ""
            ))
            let origins = info.allowedOrigins.isEmpty ? "any origin" : info.allowedOrigins.joined(separator: ", ")
            return ("API token of \(info.container): \(origins); sign-in callback \(info.signInCallbackURL ?? "none").", next)
        case "compact":
            let database = DatabaseScope(rawValue: form["database"] ?? "") ?? .private
            _ = try await services.admin.compactDatabase(CompactDatabaseRequest(
                container: place.container, environment: place.environment, database: database,
                ownerRecordName: try form.required("account", label: "the account")
            ))
            return ("The \(database.rawValue) database was compacted: change tokens older than now answer CHANGE_TOKEN_EXPIRED.", next)
        default:
            break
        }
        if form["operation"] == "token" {
            let user = try form.required("account", label: "the account")
            let hours = try Self.integer(form["hours"], "the hours")
            let token = try await services.identity.createWebAuthToken(
                userRecordName: user, container: place.container,
                expiresAt: hours.map { services.configuration.now() + Int64($0) * 3_600_000 }
            )
            return ("Web auth token for \(place.container) (shown once): \(token)", next)
        }
        try SignInService.checkPassword(form.raw("password").flatMap { $0.isEmpty ? nil : $0 })
        let account = try await services.identity.createAccount(
            email: try form.required("email", label: "the email"), givenName: form["givenName"], familyName: form["familyName"],
            discoverable: form.isOn("discoverable")
        )
        if let password = form.raw("password"), !password.isEmpty {
            try await services.signIn.setPassword(password, userRecordName: account.userRecordName)
        }
        return ("Account \(account.email) created.", next)
    }

    /// Origins typed into one field, separated by spaces or commas.
    private static func origins(_ text: String?) -> [String] {
        (text ?? "").split { $0 == " " || $0 == "," }.map(String.init)
    }

    private static func integer(_ text: String?, _ label: String) throws(ConsoleFailure) -> Int? {
        guard let text else { return nil }
        guard let value = Int(text) else { throw ConsoleFailure("\(label.prefix(1).uppercased() + label.dropFirst()) must be a whole number.") }
        return value
    }
}
