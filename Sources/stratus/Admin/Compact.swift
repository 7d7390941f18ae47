import ArgumentParser
import StratusModel

/// `stratus compact`: asks a running server to compact a zone (drop tombstones, expire older
/// tokens), or without `--zone` a whole database (its database tokens too).
struct Compact: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Expire the change tokens of a zone, or of a whole database, on a running server.")

    @OptionGroup var connection: AdminConnection
    @Option(help: "Container identifier.") var container: String
    @Option(help: "Environment.") var environment: ContainerEnvironment = .development
    @Option(help: "Database: private (default) or shared (the owner's shared-database token).") var database: DatabaseScope = .private
    @Option(help: "Zone owner's user record name.") var owner: String
    @Option(help: "Zone name; without it, every zone of the database and its database tokens.") var zone: String?

    func run() async throws {
        try await AdminClient.run {
            if let zone {
                var request = CompactZoneRequest(container: container, environment: environment, ownerRecordName: owner, zoneName: zone)
                request.database = database
                try await connection.client().post("zones/compact", request)
            } else {
                try await connection.client().post(
                    "databases/compact",
                    CompactDatabaseRequest(container: container, environment: environment, database: database, ownerRecordName: owner)
                )
            }
        }
    }
}

extension ContainerEnvironment: ExpressibleByArgument {}
extension IndexKind: ExpressibleByArgument {}
