import ArgumentParser
import Foundation
import StratusModel

/// `stratus data`: test fixtures on a running server — wipe a container environment's data (or
/// one account's), export its records as JSON, import such a file.
struct DataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "data", abstract: "Reset, export and import a container environment's data (test fixtures).",
        subcommands: [Reset.self, Export.self, Import.self]
    )

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete every account's zones, records and subscriptions (or one account's with --user); accounts and tokens stay.",
            discussion: "stratus data reset --user alice"
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(help: "Only this account: a name (alice), an email or a user record name.") var user: String?

        func run() async throws {
            try await AdminClient.run {
                let request = DataResetRequest(
                    container: try connection.container(container), environment: environment,
                    userRecordName: try await user.asyncMap { try await connection.userRecordName($0) }
                )
                try await connection.client().post("reset", request)
            }
        }
    }

    struct Export: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the records of every account's private zones and of the public database as JSON.",
            discussion: "stratus data export --output fixture.json"
        )
        @OptionGroup var connection: AdminConnection
        @Option(help: "Container identifier (default: the dev credentials' container).") var container: String?
        @Option(help: "Environment.") var environment: ContainerEnvironment = .development
        @Option(name: .shortAndLong, help: "File to write (default: standard output).") var output: String?

        func run() async throws {
            try await AdminClient.run {
                let identifier = try connection.container(container)
                let query = "container=\(identifier.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) ?? identifier)&environment=\(environment.rawValue)"
                let export = try await connection.client().fetch("export?\(query)", as: DataExport.self)
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                let data = try encoder.encode(export)
                if let output {
                    try data.write(to: URL(fileURLWithPath: output))
                    let records = export.databases.reduce(0) { $0 + $1.zones.reduce(0) { $0 + $1.records.count } }
                    print("\(records) records of \(export.databases.count) databases written to \(output)")
                } else {
                    FileHandle.standardOutput.write(data + Data("\n".utf8))
                }
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write an export's zones and records back (each record as its owner or creator).",
            discussion: "stratus data import fixture.json"
        )
        @OptionGroup var connection: AdminConnection
        @Argument(help: "A file written by `stratus data export`.") var file: String

        func run() async throws {
            let export: DataExport
            do {
                export = try JSONDecoder().decode(DataExport.self, from: Data(contentsOf: URL(fileURLWithPath: file)))
            } catch {
                throw ValidationError("\(file) is not a `stratus data export` file: \(error)")
            }
            try await AdminClient.run { try await connection.client().post("import", export) }
        }
    }
}

extension Optional {
    /// The value mapped by an async transform, or `nil`.
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
