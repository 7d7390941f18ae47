import ArgumentParser
import Foundation
import StratusModel
import StratusServerRun

/// Where an admin subcommand finds the server and its admin token: `--server` and
/// `--admin-token` when given, else `STRATUS_URL` and `STRATUS_ADMIN_TOKEN`, else the data
/// directory (`--data`, by default `./stratus-data`, the server's own default): the running
/// server's URL from its `server.json`, the token from `dev-credentials.json`.
struct AdminConnection: ParsableArguments {
    /// Where `stratus serve` keeps its data unless told otherwise.
    static let defaultData = "./stratus-data"

    @Option(help: "Server URL (default: STRATUS_URL, the server running on the data directory, or http://127.0.0.1:8080).")
    var server: String?
    @Option(help: "Admin token (default: STRATUS_ADMIN_TOKEN, or the data directory's credentials).")
    var adminToken: String?
    @Option(help: "The data directory of `stratus serve --dev` (default: ./stratus-data when it exists).")
    var data: String?
    @Flag(help: "Print the server's answer as JSON (one line, keys sorted) instead of a table.")
    var json = false

    /// The data directory named, else `./stratus-data` when a server has used it.
    var dataDirectory: URL? {
        if let data { return URL(fileURLWithPath: data, isDirectory: true) }
        let fallback = URL(fileURLWithPath: Self.defaultData, isDirectory: true)
        return FileManager.default.fileExists(atPath: fallback.path) ? fallback : nil
    }

    /// The data directory's dev credentials (`nil` without a data directory).
    /// - Throws: a `ValidationError` when `--data` names a directory without them.
    func devCredentials() throws -> DevCredentials? {
        guard let directory = dataDirectory else { return nil }
        let file = directory.appendingPathComponent("dev-credentials.json")
        guard let contents = FileManager.default.contents(atPath: file.path) else {
            guard data != nil else { return nil }
            throw ValidationError("no dev-credentials.json in \(directory.path): start the server there with `stratus serve --dev --data \(directory.path)`")
        }
        return try JSONDecoder().decode(DevCredentials.self, from: contents)
    }

    /// The URL of the server running on the data directory, as it recorded on start.
    private var runningServerURL: String? {
        dataDirectory.flatMap { ServerLock.holder(of: $0)?.url }
    }

    /// The admin client these options name.
    /// - Throws: a `ValidationError` in a plain sentence when no admin token can be found.
    func client(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AdminClient {
        let credentials = try devCredentials()
        // An empty variable is an unset one.
        let variables = environment.filter { !$0.value.isEmpty }
        let named = server ?? variables["STRATUS_URL"]
        let local = runningServerURL ?? credentials?.serverURL
        let url = named ?? local ?? "http://127.0.0.1:8080"
        // The implicit ./stratus-data speaks for its own server only: its admin token never goes
        // to another server a --server or STRATUS_URL names (an explicit --data still does).
        let trim = { (url: String?) in url.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } }
        let localToken = data == nil && named != nil && trim(named) != trim(local) ? nil : credentials?.adminToken
        guard let token = adminToken ?? variables["STRATUS_ADMIN_TOKEN"] ?? localToken else {
            throw ValidationError(
                "no admin token: pass --admin-token, set STRATUS_ADMIN_TOKEN, or run where `stratus serve --dev` keeps ./stratus-data (or name it with --data)"
            )
        }
        return AdminClient(server: url, adminToken: token, json: json)
    }

    /// `given`, else the dev credentials' own container.
    func container(_ given: String?) throws -> String {
        if let given { return given }
        guard let container = try devCredentials()?.container else {
            throw ValidationError("give --container (no dev credentials to take the default container from)")
        }
        return container
    }

    /// The user record name of an account named by its user record name (`_9c1…`), its email, or
    /// its short dev name or given name (`alice`).
    /// - Throws: a `ValidationError` naming the accounts there are when none matches.
    func userRecordName(_ given: String) async throws -> String {
        if given.hasPrefix("_") { return given }
        let wanted = given.lowercased()
        if let account = try devCredentials()?.accounts.first(where: { $0.name.lowercased() == wanted || $0.email.lowercased() == wanted }) {
            return account.userRecordName
        }
        let accounts = try await client().fetch("accounts", as: AccountsResponse.self).accounts
        let matching = accounts.filter { $0.email.lowercased() == wanted || $0.givenName?.lowercased() == wanted }
        guard matching.count == 1, let account = matching.first else {
            let known = accounts.prefix(10).map(\.email).joined(separator: ", ")
            throw ValidationError(
                matching.isEmpty ? "no account '\(given)' (accounts: \(known.isEmpty ? "none" : known))" : "'\(given)' names several accounts: give an email"
            )
        }
        return account.userRecordName
    }
}
