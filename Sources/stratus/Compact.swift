import ArgumentParser
import StratusModel

/// `stratus compact`: asks a running server to compact a zone (drop tombstones, expire older tokens).
struct Compact: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compact a zone on a running server.")

    @OptionGroup var connection: AdminConnection
    @Option(help: "Container identifier.") var container: String
    @Option(help: "Environment.") var environment: ContainerEnvironment = .development
    @Option(help: "Zone owner's user record name.") var owner: String
    @Option(help: "Zone name.") var zone: String

    func run() async throws {
        do {
            try await connection.client().post(
                "zones/compact", CompactZoneRequest(container: container, environment: environment, ownerRecordName: owner, zoneName: zone)
            )
        } catch is ExitCodeError {
            throw ExitCode.failure
        }
    }
}

extension ContainerEnvironment: ExpressibleByArgument {}
extension IndexKind: ExpressibleByArgument {}
