import ArgumentParser
import Foundation
import StratusCore
import StratusModel
import StratusServerRun

/// `stratus container`: your own container on a running server in one command — the container,
/// a development API token, and (on a `serve --dev` data directory) a web auth token for each dev
/// account, added to `dev-credentials.json`'s `containers` so connections and restarts use them.
struct ContainerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "container", abstract: "Create and list containers of a running server.", subcommands: [Create.self, List.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the containers.")
        @OptionGroup var connection: AdminConnection
        func run() async throws { try await AdminClient.run { try await connection.client().get("containers") } }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a container with a development API token (and dev accounts' web auth tokens).",
            discussion: "stratus container create iCloud.com.you.App"
        )
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The container identifier, like iCloud.com.you.App.") var identifier: String

        func validate() throws {
            guard IdentityService.isValidContainerIdentifier(identifier) else {
                throw ValidationError("a container identifier is ASCII letters, digits, '.', '-' and '_' (like iCloud.com.example.App), not '\(identifier)'")
            }
        }

        func run() async throws {
            try await AdminClient.run {
                let client = try connection.client()
                _ = try await client.call("containers", CreateContainerRequest(identifier: identifier), as: CreateContainerRequest.self)
                let apiToken = try await client.call(
                    "api-tokens", CreateAPITokenRequest(container: identifier, environment: .development), as: CreateAPITokenResponse.self
                ).apiToken
                var entry = DevCredentials.Container(identifier: identifier, environment: ContainerEnvironment.development.rawValue, apiToken: apiToken, webAuthTokens: [:])
                guard let directory = connection.dataDirectory, var credentials = try connection.devCredentials() else {
                    print("container \(identifier) (development)\napiToken: \(apiToken)")
                    return
                }
                for account in credentials.accounts {
                    entry.webAuthTokens[account.name] = try await client.call(
                        "web-auth-tokens", CreateWebAuthTokenRequest(container: identifier, userRecordName: account.userRecordName),
                        as: CreateWebAuthTokenResponse.self
                    ).webAuthToken
                }
                var containers = (credentials.containers ?? []).filter { $0.identifier != identifier }
                containers.append(entry)
                credentials.containers = containers
                try credentials.write(to: DevCredentialsFile(directory: directory).url)
                print("container \(identifier) (development): its API token and \(entry.webAuthTokens.count) accounts' web auth tokens are in \(directory.path)/dev-credentials.json")
            }
        }
    }
}
