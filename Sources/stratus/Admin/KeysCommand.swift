import ArgumentParser
import Foundation
import StratusModel

/// `stratus keys`: server-to-server keys of a running server (add a PEM public key, revoke a key ID).
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Register or revoke server-to-server (ECDSA P-256) keys.",
        subcommands: [Add.self, Revoke.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a public key; prints its key ID.",
            discussion: """
                openssl ecparam -name prime256v1 -genkey -noout -out eckey.pem
                openssl ec -in eckey.pem -pubout -out eckey.pub.pem
                stratus keys add --container iCloud.com.example.App --public-key eckey.pub.pem
                """
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier.") var container: String
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(help: "The public key's PEM file (BEGIN PUBLIC KEY).") var publicKey: String

        func run() async throws {
            guard let pem = FileManager.default.contents(atPath: publicKey).map({ String(decoding: $0, as: UTF8.self) }) else {
                throw ValidationError("cannot read \(publicKey)")
            }
            try await AdminClient.run {
                try await connection.client().post("keys", RegisterServerKeyRequest(container: container, environment: environment, publicKeyPEM: pem))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: requests signed with it fail from now on.")
        @OptionGroup var connection: AdminConnection
        @Argument(help: "The key ID.") var keyID: String
        func run() async throws { try await AdminClient.run { try await connection.client().delete("keys/\(keyID)") } }
    }
}
