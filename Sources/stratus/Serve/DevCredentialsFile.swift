import Foundation
import StratusCore
import StratusModel

/// `<data>/dev-credentials.json`: read on start so a restart keeps the same credentials,
/// written after seeding.
struct DevCredentialsFile {
    let url: URL

    init(directory: URL) {
        self.url = directory.appendingPathComponent("dev-credentials.json")
    }

    /// Seeds the dev container and each of `containers` (`--container`), keeping each of the
    /// previous run's credentials the store still takes, and says which had to be minted again.
    /// With `shared` (instances on PostgreSQL sharing the directory) the URL of the instance that
    /// wrote the file first stays: another instance never rewrites it.
    func seed(with services: StratusServices, serverURL: String, containers: [String] = [], shared: Bool = false) async throws -> DevCredentials {
        let previous = (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(DevCredentials.self, from: $0) }
        // A container added with `stratus container create` stays seeded, as one named by --container.
        let kept = (previous?.containers ?? []).map(\.identifier).filter { !containers.contains($0) }
        var (credentials, reminted) = try await DevSeeder(identity: services.identity).seedReporting(
            previous: previous, serverURL: serverURL, containers: containers + kept
        )
        if shared, let first = previous?.serverURL { credentials.serverURL = first }
        if !reminted.isEmpty {
            FileHandle.standardOutput.write(Data("dev credentials: minted again (the store no longer took them): \(reminted.joined(separator: ", "))\n".utf8))
        }
        if credentials == previous { return credentials }
        try write(credentials)
        return credentials
    }

    /// Writes the file (readable by its owner only).
    func write(_ credentials: DevCredentials) throws {
        try credentials.write(to: url)
    }

    /// Ready-to-paste curl lines: create a zone, save a record, fetch the zone's changes.
    static func walkthrough(_ credentials: DevCredentials) -> String {
        let alice = credentials.account("alice")
        let base = "\(credentials.serverURL)/database/1/\(credentials.container)/\(credentials.environment)/private"
        let query = "ckAPIToken=\(credentials.apiToken)&ckWebAuthToken=\(alice?.webAuthToken ?? "")"
        let accounts = credentials.accounts.map { "  \($0.name) <\($0.email)> \($0.userRecordName)" }.joined(separator: "\n")
        // Each further container (`--container`) has tokens of its own: say where they are.
        let also = (credentials.containers ?? []).filter { $0.identifier != credentials.container }.map {
            "\ncontainer \($0.identifier) (\($0.environment); its tokens: \"containers\" in dev-credentials.json)"
        }.joined()
        return """
            Stratus (dev) at \(credentials.serverURL)
            container \(credentials.container) (\(credentials.environment))\(also)
            accounts:
            \(accounts)
            credentials: see dev-credentials.json in the data directory

            # create a zone (as alice)
            curl -s -X POST '\(base)/zones/modify?\(query)' -d '{"operations":[{"operationType":"create","zone":{"zoneID":{"zoneName":"Trips"}}}]}'
            # save a record
            curl -s -X POST '\(base)/records/modify?\(query)' -d '{"zoneID":{"zoneName":"Trips"},"operations":[{"operationType":"create","record":{"recordName":"paris","recordType":"Destination","fields":{"caption":{"value":"Paris"},"createdAt":{"value":1767225600000,"type":"TIMESTAMP"}}}}]}'
            # fetch the zone's changes
            curl -s -X POST '\(base)/changes/zone?\(query)' -d '{"zones":[{"zoneID":{"zoneName":"Trips"}}]}'
            """
    }
}

/// `<data>/admin-token`: the admin token of a non-dev server, minted and printed on first start.
struct AdminTokenFile {
    let url: URL

    init(directory: URL) {
        self.url = directory.appendingPathComponent("admin-token")
    }

    func ensure(with services: StratusServices) async throws {
        if FileManager.default.fileExists(atPath: url.path) { return }
        let token = services.identity.newAdminToken()
        try await services.identity.addAdminToken(token)
        try Data(token.utf8).write(to: url, options: .atomic)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        FileHandle.standardOutput.write(Data("admin token (also in \(url.path)): \(token)\n".utf8))
    }
}
