import Foundation
import Hummingbird
import Logging
import NIOCore
import StratusCore
import StratusModel

/// Test fixtures from the console: download a container environment's records as JSON, import
/// such a file, wipe the environment's data or one account's (each asking first).
struct DataRoutes: Sendable {
    let console: Console
    private var services: StratusServices { console.services }

    func register<Context: RequestContext>(on group: RouterGroup<Context>) {
        group.get("c/:container/:environment/data", use: console.page(page))
        group.get("c/:container/:environment/data/export", use: console.page(export))
        group.post("c/:container/:environment/data", use: console.action(change))
    }

    private func page(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let people = try await AccountDirectory.load(services.identity)
        let values: [String: Any] = [
            "accounts": people.accounts.map { ["value": $0.userRecordName, "label": AccountDirectory.label($0)] },
            "exportPath": "\(place.base)/data/export", "action": "\(place.base)/data", "back": "\(place.base)/data",
            "container": place.container, "environment": place.environment.rawValue,
        ]
        return console.views.page("data", title: "Data", values, chrome: console.chrome(request, place: place))
    }

    /// The export, as a file to save.
    private func export(_ request: ConsoleRequest) async throws -> Response {
        let place = try request.place()
        let export = try await services.fixtures.export(container: place.container, environment: place.environment)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let file = "\(place.container)-\(place.environment.rawValue).json".filter { $0.isLetter || $0.isNumber || ".-_".contains($0) }
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .contentDisposition: "attachment; filename=\"\(file)\"", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(export)))
        )
    }

    private func change(_ request: ConsoleRequest) async throws -> (notice: String, next: String) {
        let place = try request.place()
        let form = request.form
        let next = "\(place.base)/data"
        switch form["operation"] {
        case "import":
            let text = try form.required("document", label: "the export's JSON")
            let document: DataExport
            do {
                document = try JSONDecoder().decode(DataExport.self, from: Data(text.utf8))
            } catch {
                throw ConsoleFailure("That is not an export (stratus data export, or Download on this page): \(error)")
            }
            guard document.container == place.container, document.environment == place.environment else {
                throw ConsoleFailure("That export is of \(document.container) (\(document.environment.rawValue)), not this container environment.")
            }
            let result = try await services.fixtures.importData(document, logger: Logger(label: "stratus.console"))
            let refused = result.errors.isEmpty ? "" : "; \(result.errors.count) refused, the first: \(result.errors[0].reason)"
            return ("Imported \(result.recordsSaved) records into \(result.zonesCreated) new zones\(refused).", next)
        case "reset", "resetAccount":
            let user = form["operation"] == "resetAccount" ? try form.required("account", label: "the account") : nil
            let result = try await services.fixtures.reset(
                DataResetRequest(container: place.container, environment: place.environment, userRecordName: user)
            )
            return (
                "Reset: \(result.zonesDeleted) zones, \(result.recordsDeleted) records and \(result.subscriptionsDeleted) subscriptions deleted.",
                next
            )
        default:
            throw ConsoleFailure("Nothing was changed: the form asked for no known operation.")
        }
    }
}
