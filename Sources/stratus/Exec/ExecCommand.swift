import ArgumentParser
import Foundation
import StratusModel
import StratusProcess
import StratusServerRun
import UnixSignals

/// `stratus exec`: a development server for the length of one command, as Firebase's
/// `emulators:exec` does it — started on a free port with a fresh temporary data directory, the
/// command run with the server's address and credentials in its environment, then the server
/// stopped and the directory removed; it exits with the command's status.
struct ExecCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec",
        abstract: "Run a command against a fresh development server, then stop the server.",
        discussion: """
            Starts `stratus serve --dev` on a free port with a fresh temporary data directory, waits until it answers, runs COMMAND with STRATUS_URL, STRATUS_CREDENTIALS, STRATUS_ACCOUNT=alice, STRATUS_ADMIN_TOKEN and STRATUS_CONTAINER (the first --container, else the default one) in its environment, then stops the server, removes the directory and exits with COMMAND's status.

            Options of `serve` other than --host, --port, --data and --dev go before `--` as `serve` takes them: --container (repeatable), --schema FILE (the dev container's schema, as `xcrun cktool export-schema` writes it), --limits, --require-indexes, --store, --buggify, --seed, --log-level, …

            Examples:
              stratus exec -- swift test
              stratus exec --schema app.ckdb -- swift test
              stratus exec --container iCloud.com.example.Notes -- swift test --filter SyncTests
            """
    )

    @Option(help: "Use this data directory (kept afterwards) instead of a fresh temporary one.") var data: String?
    @Flag(help: "Keep the temporary data directory afterwards, and say where it is.") var keepData = false
    @Option(help: "Where the server's log goes: a file, or - for this terminal (default: a file in the temporary directory, named when the run starts).")
    var log: String?
    @Option(help: "Port for the server (default: a free one).") var port: Int?
    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("[serve options] -- COMMAND [ARGS…]", valueName: "command"))
    var arguments: [String] = []

    func run() async throws {
        // Everything is captured for the server and the command; help before `--` is this command's.
        let ownPart = arguments.prefix { $0 != "--" }
        if ownPart.contains("--help") || ownPart.contains("-h") { throw CleanExit.helpRequest(self) }
        guard let split = arguments.firstIndex(of: "--"), split + 1 < arguments.count else {
            throw ValidationError("name the command after --: stratus exec -- swift test")
        }
        let serveOptions = Array(arguments[..<split])
        let command = Array(arguments[(split + 1)...])
        guard let executable = ChildProcess.resolve(command[0]) else {
            Serve.sayError("stratus exec: \(command[0]): command not found")
            throw ExitCode(127)
        }
        // Trapped from here on (this process outlives Ctrl-C to clean up); the children take
        // every signal's default action.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint)
        let temporary = data == nil
        let directory = data.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stratus-exec-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The log sits beside the data, not in it: a failed run keeps it for reading.
        let defaultLog = directory.path + ".log"
        let logFile = log == "-" ? nil : log ?? defaultLog
        let server: ServerProcess
        do {
            // This very binary: `serve` of the same build.
            guard let binary = Bundle.main.executableURL?.path ?? ChildProcess.resolve(CommandLine.arguments[0]) else {
                throw ServerProcess.Failure(description: "cannot find the stratus binary to start the server (\(CommandLine.arguments[0]))")
            }
            server = try await ServerProcess.start(
                binary: binary, data: directory, port: port, arguments: serveOptions, output: logFile, deadline: .seconds(60)
            )
        } catch {
            Serve.sayError("stratus exec: \(error)")
            if temporary && !keepData { try? FileManager.default.removeItem(at: directory) }
            if logFile == defaultLog { Serve.sayError("stratus exec: the server's log is kept in \(defaultLog)") }
            throw ExitCode(1)
        }
        if let logFile { Serve.sayError("stratus exec: server at \(server.url), log in \(logFile)") }

        // Ctrl-C reaches the command and the server through the terminal; a SIGTERM sent to this
        // process alone is passed on to the command. Either way the server stops after it.
        let commandPID = try ChildProcess.spawn(executable, Array(command.dropFirst()), output: nil, environment: server.environment(firstContainer: Self.firstContainer(serveOptions)))
        let forwarding = Task {
            for await signal in signals where signal == .sigterm { kill(commandPID, SIGTERM) }
        }
        let ending = await ChildProcess.ending(of: commandPID)
        forwarding.cancel()
        await server.terminate()
        if temporary && !keepData {
            try? FileManager.default.removeItem(at: directory)
        } else {
            Serve.sayError("stratus exec: the server's data is kept in \(directory.path)")
        }
        if logFile == defaultLog {
            if ending.shellStatus == 0 && temporary && !keepData {
                try? FileManager.default.removeItem(atPath: defaultLog)
            } else {
                Serve.sayError("stratus exec: the server's log is kept in \(defaultLog)")
            }
        }
        if ending.shellStatus != 0 { throw ExitCode(ending.shellStatus) }
    }

    /// The first `--container` among the serve options (`--container X` or `--container=X`).
    static func firstContainer(_ options: [String]) -> String? {
        for (index, option) in options.enumerated() {
            if option == "--container", index + 1 < options.count { return options[index + 1] }
            if option.hasPrefix("--container=") { return String(option.dropFirst("--container=".count)) }
        }
        return nil
    }
}
