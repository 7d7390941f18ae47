import ArgumentParser
import Foundation
import NIOCore
import NIOPosix

/// The `stratus` command: a CloudKit-compatible server and its operator tools.
struct Stratus: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus",
        abstract: "A CloudKit Web Services compatible backend.",
        version: "0.1.0",
        subcommands: [Serve.self, Compact.self, SchemaCommand.self, KeysCommand.self, FaultsCommand.self, AccountCommand.self, FuzzCommand.self]
    )
}

/// The process entry point. It starts synchronously so NIO's event loops can become Swift
/// concurrency's global executor before any task runs: request handlers then run on the loop that
/// read the request, without a hop to the cooperative pool (measured +27 % on JSON POSTs here,
/// PERFORMANCE.md).
@main
enum Main {
    static func main() {
        _ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        // The executable's one unstructured task: it runs the whole command, then exits.
        Task {
            await Stratus.main()
            exit(0)
        }
        dispatchMain()
    }
}
