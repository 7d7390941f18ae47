import AsyncHTTPClient
import Foundation
import StratusModel

/// Where a ``CKContainer`` finds its server and whose credentials it uses: a Stratus server's
/// URL, a container environment's API token and — for a signed-in account — a web auth token.
///
/// `CKContainer(identifier:)` reads one from the environment (``fromEnvironment()``);
/// `CKContainer(identifier:connection:)` names an account explicitly, so one process can act as
/// several accounts.
public struct StratusConnection: Sendable, Hashable {
    /// A container's environment.
    public enum Environment: String, Sendable, Hashable, CaseIterable {
        case development, production
    }

    public var serverURL: URL
    public var apiToken: String
    public var webAuthToken: String?
    public var environment: Environment

    public init(serverURL: URL, apiToken: String, webAuthToken: String?, environment: Environment = .development) {
        self.serverURL = serverURL
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
        self.environment = environment
    }

    /// A connection from a `stratus serve --dev` credentials file, as `account` (a name such as
    /// `bob`, or an email); it works for every container the server seeded.
    /// - Throws: ``StratusConnectionError`` when the file cannot be read or names no such account.
    public init(devCredentials file: URL, account: String) throws {
        let credentials: DevCredentials
        do {
            credentials = try JSONDecoder().decode(DevCredentials.self, from: Data(contentsOf: file))
        } catch {
            throw StratusConnectionError("cannot read dev credentials at \(file.path): \(error)")
        }
        guard let entry = credentials.account(account) ?? credentials.accounts.first(where: { $0.email.lowercased() == account.lowercased() }) else {
            let names = credentials.accounts.map(\.name).joined(separator: ", ")
            throw StratusConnectionError("no account '\(account)' in \(file.path) (it has \(names))")
        }
        guard let url = URL(string: credentials.serverURL) else { throw StratusConnectionError("bad serverURL in \(file.path)") }
        self.init(
            serverURL: url, apiToken: credentials.apiToken, webAuthToken: entry.webAuthToken,
            environment: Environment(rawValue: credentials.environment) ?? .development
        )
    }

    /// The connection the environment names: `STRATUS_URL` (default `http://127.0.0.1:8080`),
    /// then `STRATUS_CREDENTIALS` + `STRATUS_ACCOUNT` (a dev credentials file and an account), or
    /// `STRATUS_API_TOKEN` + `STRATUS_WEB_AUTH_TOKEN`; `STRATUS_ENVIRONMENT` (development or
    /// production) overrides the environment.
    /// - Throws: ``StratusConnectionError`` when neither credentials file nor API token is set.
    public static func fromEnvironment() throws -> StratusConnection {
        try fromEnvironment(ProcessInfo.processInfo.environment)
    }

    static func fromEnvironment(_ variables: [String: String]) throws -> StratusConnection {
        let variables = variables.filter { !$0.value.isEmpty }
        var connection: StratusConnection
        if let file = variables["STRATUS_CREDENTIALS"] {
            connection = try StratusConnection(devCredentials: URL(fileURLWithPath: file), account: variables["STRATUS_ACCOUNT"] ?? "alice")
        } else if let apiToken = variables["STRATUS_API_TOKEN"] {
            connection = StratusConnection(
                serverURL: defaultServerURL, apiToken: apiToken, webAuthToken: variables["STRATUS_WEB_AUTH_TOKEN"]
            )
        } else {
            throw StratusConnectionError("no credentials: set STRATUS_CREDENTIALS (+ STRATUS_ACCOUNT) or STRATUS_API_TOKEN (+ STRATUS_WEB_AUTH_TOKEN)")
        }
        if let url = variables["STRATUS_URL"] {
            guard let parsed = URL(string: url) else { throw StratusConnectionError("STRATUS_URL is not a URL: \(url)") }
            connection.serverURL = parsed
        }
        if let name = variables["STRATUS_ENVIRONMENT"] {
            guard let environment = Environment(rawValue: name) else {
                throw StratusConnectionError("STRATUS_ENVIRONMENT must be development or production, not \(name)")
            }
            connection.environment = environment
        }
        return connection
    }

    /// Where a server runs unless `STRATUS_URL` says otherwise.
    static let defaultServerURL = URL(string: "http://127.0.0.1:8080") ?? URL(fileURLWithPath: "/")

    /// The transport for a container of this connection.
    func transport(container: String, client: HTTPClient = .shared) -> CKWSTransport {
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return CKWSTransport(
            baseURL: "\(base)/database/1/\(container)/\(environment.rawValue)", apiToken: apiToken, webAuthToken: webAuthToken,
            deviceID: nil, client: client
        )
    }
}

/// Why a ``StratusConnection`` could not be made.
public struct StratusConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
