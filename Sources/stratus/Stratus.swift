import ArgumentParser

/// The `stratus` command: a CloudKit-compatible server and its operator tools, and the process's
/// entry point.
///
/// Tasks run on Swift's default executor, not NIO's event loops (which `stratus` installed as the
/// global executor until 2026-11-23): NIO runs each job on its loop's serial executor, so every
/// call into a nonisolated async function was a switch that queued the task again behind
/// everything else on the loop. Under a fan-out (10,000 woken long-polls and their new requests)
/// each request's task waited in that queue once per call level, and thousands of half-run
/// requests held their frames at once. Without it: single creates alike within run-to-run noise,
/// writes beside 100 of the writer's listening devices 779 → 1,375/s (BENCHMARKS.md, push).
@main
struct Stratus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A CloudKit Web Services compatible backend.",
        version: "0.1.0",
        subcommands: [
            Serve.self, ContainerCommand.self, Compact.self, SchemaCommand.self, KeysCommand.self, APITokenCommand.self, FaultsCommand.self,
            AccountCommand.self, DataCommand.self, FuzzCommand.self, ExecCommand.self,
        ]
    )
}
