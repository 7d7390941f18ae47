import ArgumentParser
import StratusModel

/// `stratus account`: what happens to an account outside the app, made to happen on demand — a
/// zone deleted, purged or reset, a web auth token revoked, a storage quota set.
struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "Account events on a running server: zone resets, token revocation, quotas.",
        subcommands: [ResetZone.self, RevokeToken.self, Quota.self]
    )

    struct ResetZone: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-zone", abstract: "Delete a private zone as deleted, purged (Settings) or encryptedDataReset."
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(help: "The zone owner: a name (alice), an email or a user record name.") var user: String
        @Option(help: "Zone name.") var zone: String
        @Option(help: "deleted, purged or encryptedDataReset.") var reason: ZoneDeletionReason = .deleted

        func run() async throws {
            try await AdminClient.run {
                let request = ZoneResetRequest(
                    container: try connection.container(container), environment: environment,
                    userRecordName: try await connection.userRecordName(user), zoneName: zone, reason: reason
                )
                try await connection.client().post("zones/reset", request)
            }
        }
    }

    struct RevokeToken: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-token", abstract: "Revoke a web auth token: its next request answers 421."
        )
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The web auth token.") var webAuthToken: String

        func run() async throws {
            try await AdminClient.run {
                try await connection.client().post("web-auth-tokens/revoke", RevokeWebAuthTokenRequest(webAuthToken: webAuthToken))
            }
        }
    }

    struct Quota: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set an account's storage quota (bytes), or lift it with --none.")
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(help: "The account: a name (alice), an email or a user record name.") var user: String
        @Option(help: "Quota in bytes.") var bytes: Int64?
        @Flag(help: "Lift the quota.") var none = false

        func validate() throws {
            guard (bytes != nil) != none else { throw ValidationError("give --bytes N or --none") }
        }

        func run() async throws {
            try await AdminClient.run {
                let request = SetQuotaRequest(
                    container: try connection.container(container), environment: environment,
                    userRecordName: try await connection.userRecordName(user), bytes: bytes
                )
                try await connection.client().post("quotas", request)
            }
        }
    }
}
