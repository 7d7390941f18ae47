import AsyncHTTPClient
import Foundation
import StratusModel

/// Where a ``CKContainer`` finds its server and whose credentials it uses: a Stratus server's
/// URL, a container environment's API token and — for a signed-in account — a web auth token.
///
/// `CKContainer(identifier:)` reads one from the environment (``fromEnvironment()``);
/// `CKContainer(identifier:connection:)` names an account explicitly, so one process can act as
/// several accounts.
///
/// A token is bound to one container: a connection made from a dev credentials file also keeps
/// every seeded container's own tokens, and uses them for that container.
public struct StratusConnection: Sendable, Hashable {
    /// A container's environment.
    public enum Environment: String, Sendable, Hashable, CaseIterable {
        case development, production
    }

    /// One container's own credentials, as the account of the connection.
    struct ContainerCredentials: Sendable, Hashable {
        var environment: Environment
        var apiToken: String
        var webAuthToken: String?
    }

    public var serverURL: URL
    public var apiToken: String
    public var webAuthToken: String?
    public var environment: Environment
    /// Each seeded container's own credentials, by container identifier (from a dev credentials
    /// file's `containers`); the top-level ones serve every container not listed.
    var containerCredentials: [String: ContainerCredentials] = [:]
    /// The device this connection speaks for, sent as `X-Stratus-Device-ID`: stamped on what it
    /// writes, and the device the server keeps a zone's client change token for
    /// (``CKModifyRecordsOperation/clientChangeTokenData``). `nil`: the account's connections
    /// that name none are one device.
    public var deviceID: String?

    public init(serverURL: URL, apiToken: String, webAuthToken: String?, environment: Environment = .development) {
        self.serverURL = serverURL
        self.apiToken = apiToken
        self.webAuthToken = webAuthToken
        self.environment = environment
    }

    /// A connection from a `stratus serve --dev` credentials file, as `account` (a name such as
    /// `bob`, or an email); it works for every container the server seeded (`--container`), each
    /// with the tokens the file's `containers` list for it, the top-level ones for the others.
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
        // The top-level container keeps the top-level tokens (the same ones, as the server seeds them).
        for container in credentials.containers ?? [] where container.identifier != credentials.container {
            containerCredentials[container.identifier] = ContainerCredentials(
                environment: Environment(rawValue: container.environment) ?? .development, apiToken: container.apiToken,
                webAuthToken: container.webAuthTokens[entry.name]
            )
        }
    }

    /// The connection the environment names: `STRATUS_URL` (default `http://127.0.0.1:8080`),
    /// then `STRATUS_CREDENTIALS` + `STRATUS_ACCOUNT` (a dev credentials file and an account, as
    /// ``init(devCredentials:account:)``: every seeded container with its own tokens), or
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

    /// The credentials for `container`: its own when the connection has them for its environment,
    /// else the top-level ones. A connection without a web auth token (signed out) sends none.
    func credentials(container: String) -> (apiToken: String, webAuthToken: String?) {
        guard let own = containerCredentials[container], own.environment == environment else { return (apiToken, webAuthToken) }
        return (own.apiToken, webAuthToken == nil ? nil : own.webAuthToken)
    }

    /// The transport for a container of this connection, with that container's credentials.
    func transport(container: String, client: HTTPClient = .shared) -> CKWSTransport {
        var base = serverURL.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let tokens = credentials(container: container)
        return CKWSTransport(
            baseURL: "\(base)/database/1/\(container)/\(environment.rawValue)", apiToken: tokens.apiToken,
            webAuthToken: tokens.webAuthToken, deviceID: deviceID, client: client
        )
    }
}

/// Why a ``StratusConnection`` could not be made.
public struct StratusConnectionError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
