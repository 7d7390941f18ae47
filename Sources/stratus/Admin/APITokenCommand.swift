import ArgumentParser
import Foundation
import StratusModel

/// `stratus api-token`: mint API tokens of a running server and set where their web auth tokens
/// may go — the allowed origins and sign-in callback URL CloudKit's dashboard registers per token.
struct APITokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api-token", abstract: "Mint API tokens and register their allowed origins and sign-in callback URL.",
        subcommands: [Create.self, Update.self]
    )

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Mint an API token; prints it (shown once).",
            discussion: """
                stratus api-token create --container iCloud.com.example.App \\
                    --allowed-origin https://app.example.com --sign-in-callback https://app.example.com/signed-in
                """
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier.") var container: String
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(name: .customLong("allowed-origin"), help: "An origin (https://host[:port]) pages using the token may have; repeatable.")
        var allowedOrigins: [String] = []
        @Option(name: .customLong("sign-in-callback"), help: "The URL sign-in may redirect to with ?ckWebAuthToken=.")
        var signInCallbackURL: String?

        func run() async throws {
            let request = CreateAPITokenRequest(
                container: container, environment: environment, allowedOrigins: allowedOrigins, signInCallbackURL: signInCallbackURL
            )
            try await AdminClient.run { try await connection.client().post("api-tokens", request) }
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace an API token's allowed origins or sign-in callback URL (what is not given stays).",
            discussion: "stratus api-token update <token> --allowed-origin https://app.example.com --sign-in-callback ''"
        )
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The API token.") var apiToken: String
        @Option(name: .customLong("allowed-origin"), help: "An allowed origin; repeatable; replaces the list.")
        var allowedOrigins: [String] = []
        @Flag(help: "Remove every allowed origin.") var clearOrigins = false
        @Option(name: .customLong("sign-in-callback"), help: "The sign-in callback URL ('' removes it).")
        var signInCallbackURL: String?

        func validate() throws {
            if clearOrigins, !allowedOrigins.isEmpty { throw ValidationError("--clear-origins and --allowed-origin exclude each other") }
        }

        func run() async throws {
            let origins: [String]? = clearOrigins ? [] : (allowedOrigins.isEmpty ? nil : allowedOrigins)
            let request = UpdateAPITokenRequest(apiToken: apiToken, allowedOrigins: origins, signInCallbackURL: signInCallbackURL)
            try await AdminClient.run { try await connection.client().post("api-tokens/update", request) }
        }
    }
}
