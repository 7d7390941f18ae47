import Foundation
import Hummingbird
import StratusModel

/// One request to a signed-in console page: the session, the fields of its query and form,
/// its path parameters and the origin the browser reached.
struct ConsoleRequest: Sendable {
    let request: Request
    let session: ConsoleSession
    let parameters: Parameters
    let query: FormFields
    let form: FormFields
    /// `http(s)://host[:port]` as the browser reached the server (asset links point there).
    let origin: String
    /// The body was over the request limit (or cut off): the form is empty.
    var bodyRefused = false

    /// A path parameter, percent-decoded.
    func parameter(_ name: String) throws(ConsoleFailure) -> String {
        guard let raw = parameters.get(name), let value = raw.removingPercentEncoding, !value.isEmpty else {
            throw ConsoleFailure("The address is missing its \(name).")
        }
        return value
    }

    /// The container and environment of the path.
    func place() throws(ConsoleFailure) -> Place {
        let environmentName = try parameter("environment")
        guard let environment = ContainerEnvironment(rawValue: environmentName) else {
            throw ConsoleFailure("Unknown environment '\(environmentName)': development or production.")
        }
        var place = Place(container: try parameter("container"), environment: environment)
        if parameters.get("user") != nil { place.user = try parameter("user") }
        if parameters.get("database") != nil {
            let scopeName = try parameter("database")
            guard let scope = DatabaseScope(rawValue: scopeName) else {
                throw ConsoleFailure("Unknown database '\(scopeName)': private, shared or public.")
            }
            place.scope = scope
        }
        let fields = request.method == .post ? form : query
        place.zone = fields["zone"] ?? query["zone"]
        place.owner = fields["owner"] ?? query["owner"] ?? (place.scope == .shared ? nil : place.user)
        if place.scope == .public { place.owner = nil }
        return place
    }
}
