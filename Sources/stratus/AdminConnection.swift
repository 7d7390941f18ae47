import ArgumentParser
import Foundation
import StratusModel

/// Where an admin subcommand finds the server and its admin token: `--server` and
/// `--admin-token` when given, else `STRATUS_URL` and `STRATUS_ADMIN_TOKEN`, else the
/// `dev-credentials.json` of `--data` (the directory `stratus serve --dev` wrote).
struct AdminConnection: ParsableArguments {
    @Option(help: "Server URL (default: STRATUS_URL, the --data directory's credentials, or http://127.0.0.1:8080).")
    var server: String?
    @Option(help: "Admin token (default: STRATUS_ADMIN_TOKEN, or the --data directory's credentials).")
    var adminToken: String?
    @Option(help: "A data directory of `stratus serve --dev`: its dev-credentials.json names the server and token.")
    var data: String?

    /// The admin client these options name.
    /// - Throws: a `ValidationError` in a plain sentence when no admin token can be found.
    func client(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> AdminClient {
        let credentials = try data.map { directory -> DevCredentials in
            let file = URL(fileURLWithPath: directory).appendingPathComponent("dev-credentials.json")
            guard let data = FileManager.default.contents(atPath: file.path) else {
                throw ValidationError("no dev-credentials.json in \(directory): start the server there with `stratus serve --dev --data \(directory)`")
            }
            return try JSONDecoder().decode(DevCredentials.self, from: data)
        }
        // An empty variable is an unset one.
        let variables = environment.filter { !$0.value.isEmpty }
        let url = server ?? variables["STRATUS_URL"] ?? credentials?.serverURL ?? "http://127.0.0.1:8080"
        guard let token = adminToken ?? variables["STRATUS_ADMIN_TOKEN"] ?? credentials?.adminToken else {
            throw ValidationError("no admin token: pass --admin-token, set STRATUS_ADMIN_TOKEN, or name a dev data directory with --data")
        }
        return AdminClient(server: url, adminToken: token)
    }
}
