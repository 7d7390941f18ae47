import Foundation
import StratusCore
import StratusModel

/// `<data>/dev-credentials.json`: what a development server seeded — its containers, API tokens,
/// accounts and their web auth tokens, the admin token — read on start so a restart keeps the
/// same credentials, written after seeding. `stratus serve --dev`, ``ServerRun`` and the clients
/// that read `STRATUS_CREDENTIALS` share it.
package struct DevCredentialsFile: Sendable {
    package let url: URL

    package init(directory: URL) {
        self.url = directory.appendingPathComponent("dev-credentials.json")
    }

    /// What a seeding did: the credentials, and which of the previous run's the store no longer
    /// took (minted again).
    package struct Seeded: Sendable {
        package let credentials: DevCredentials
        package let reminted: [String]
    }

    /// The credentials the file holds, if it holds any.
    package func read() -> DevCredentials? {
        (try? Data(contentsOf: url)).flatMap { try? JSONDecoder().decode(DevCredentials.self, from: $0) }
    }

    /// Seeds the dev container and each of `containers` (`--container`), keeping each of the
    /// previous run's credentials the store still takes, and writes the file when anything
    /// changed. A container the file lists beside them (made with `stratus container create`)
    /// stays seeded. With `shared` (instances on PostgreSQL sharing the directory) the URL of the
    /// instance that wrote the file first stays: another instance never rewrites it.
    package func seed(identity: IdentityService, serverURL: String, containers: [String] = [], shared: Bool = false) async throws -> Seeded {
        let previous = read()
        let kept = (previous?.containers ?? []).map(\.identifier).filter { !containers.contains($0) }
        var (credentials, reminted) = try await DevSeeder(identity: identity).seedReporting(
            previous: previous, serverURL: serverURL, containers: containers + kept
        )
        if shared, let first = previous?.serverURL { credentials.serverURL = first }
        if credentials != previous { try credentials.write(to: url) }
        return Seeded(credentials: credentials, reminted: reminted)
    }
}
