import ArgumentParser

/// The `stratus` command: a CloudKit-compatible server and its operator tools.
@main
struct Stratus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A CloudKit Web Services compatible backend.",
        subcommands: [Serve.self, Compact.self]
    )
}
