import Foundation
import StratusModel
import StratusProcess
import Synchronization

/// `stratus serve --dev` as a child process of this one, on 127.0.0.1 — the same composition as
/// a ``ServerRun``, in a process of its own — with one launcher and one readiness wait for
/// everyone who needs that: `stratus exec` (the command's server), the CloudKit tests that kill a
/// server outright, `stratus-bench` (the server's CPU and memory apart from the load's).
///
/// A launch is ready once its port answers and the server said it is: `server.json` names this
/// child's PID with its URL (written once bound and seeded), or — instances on PostgreSQL, which
/// share their directory and take no claim — its output since the launch says it listens on the
/// port (when the output is a file to read; else `dev-credentials.json` is there).
package final class ServerProcess: Sendable {
    /// Why the server did not start, said plainly.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }

    package let binary: String
    package let port: Int
    /// The data directory (`--data`).
    package let data: URL
    /// `serve`'s options beside `--dev`, `--host`, `--port` and `--data`.
    package let arguments: [String]
    /// Where its output is appended (`nil`: this process's own).
    package let output: String?
    /// Whether instances share the data directory: a PostgreSQL store (`--store`, or `STRATUS_STORE`).
    private let sharesDirectory: Bool
    private let running = Mutex<pid_t?>(nil)

    private init(binary: String, port: Int, data: URL, arguments: [String], output: String?) {
        self.binary = binary
        self.port = port
        self.data = data
        self.arguments = arguments
        self.output = output
        let named = arguments.firstIndex(of: "--store").map { $0 + 1 < arguments.count ? arguments[$0 + 1] : "" }
            ?? arguments.first { $0.hasPrefix("--store=") }.map { String($0.dropFirst("--store=".count)) }
        self.sharesDirectory = OpenedStore.url(option: named) != nil
    }

    /// Where the server answers.
    package var url: String { "http://127.0.0.1:\(port)" }
    /// The dev credentials file the server writes (what `STRATUS_CREDENTIALS` names).
    package var credentialsFile: URL { DevCredentialsFile(directory: data).url }
    /// What the server seeded.
    package var credentials: DevCredentials? { DevCredentialsFile(directory: data).read() }
    /// The running child's PID; `nil` while stopped.
    package var pid: pid_t? { running.withLock { $0 } }

    /// Starts `binary serve --dev` over `data` on `port` — a free one when `nil`, another tried
    /// when the one picked is taken meanwhile — and returns once it is ready.
    /// - Throws: ``Failure`` saying why (the port taken, the server's last lines, no answer within `deadline`).
    package static func start(
        binary: String, data: URL, port: Int? = nil, arguments: [String] = [], output: String?, deadline: Duration = .seconds(180)
    ) async throws -> ServerProcess {
        func launch(on port: Int) async throws -> ServerProcess {
            let server = ServerProcess(binary: binary, port: port, data: data, arguments: arguments, output: output)
            try await server.launchReporting(deadline: deadline)
            return server
        }
        do {
            guard let port else {
                // A port another process takes between its pick and the bind: the next one.
                return try await FreePort.starting(anotherPortMayCure: { ($0 as? LaunchFailure)?.portTaken == true }, launch(on:))
            }
            do {
                return try await launch(on: port)
            } catch let refused as LaunchFailure where refused.portTaken {
                throw Failure(description: "port \(port) is taken: another server listens there (omit --port to use a free one)")
            }
        } catch let refused as LaunchFailure {
            throw refused.failure
        }
    }

    /// A launch that failed, with what the server printed during it.
    private struct LaunchFailure: Error {
        let failure: Failure
        let said: String

        /// Whether the server could not bind its port (another process listens there).
        var portTaken: Bool { said.lowercased().contains("address already in use") }
    }

    /// Starts the server (again) on the same data directory and port; returns once it is ready.
    /// - Throws: ``Failure`` saying why (the server's last lines, no answer within `deadline`).
    package func launch(deadline: Duration = .seconds(180)) async throws {
        do {
            try await launchReporting(deadline: deadline)
        } catch let launch as LaunchFailure {
            throw launch.failure
        }
    }

    private func launchReporting(deadline: Duration) async throws {
        // What this launch prints starts here: an earlier launch's lines (the same log appended
        // to) say nothing of this one.
        let printedBefore = output.flatMap { try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? Int } ?? 0
        let child = try ChildProcess.spawn(
            binary, ["serve", "--dev", "--host", "127.0.0.1", "--port", String(port), "--data", data.path] + arguments, output: output
        )
        running.withLock { $0 = child }
        let until = ContinuousClock.now + deadline
        while ContinuousClock.now < until {
            if let ending = ChildProcess.ended(child) {
                running.withLock { $0 = nil }
                let said = printed(since: printedBefore) ?? ""
                let tail = said.split(separator: "\n").suffix(5).joined(separator: "\n")
                throw LaunchFailure(
                    failure: Failure(description: "the server did not start (exit status \(ending.shellStatus))" + (tail.isEmpty ? "" : ":\n\(tail)")),
                    said: said
                )
            }
            if isReady(child, printedBefore: printedBefore) { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        await terminate()
        throw Failure(description: "the server did not answer on port \(port) within \(deadline)" + (output.map { "; see \($0)" } ?? ""))
    }

    /// What the server printed to ``output`` after its first `offset` bytes; `nil` when the
    /// output is no file to read (this terminal, `/dev/null`).
    private func printed(since offset: Int) -> String? {
        guard let output, output != "/dev/null", let handle = FileHandle(forReadingAtPath: output) else { return nil }
        defer { try? handle.close() }
        try? handle.seek(toOffset: UInt64(offset))
        return (try? handle.readToEnd()).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Whether the launch `child` is ready: its port answers and it said so.
    private func isReady(_ child: pid_t, printedBefore: Int) -> Bool {
        guard FreePort.answers(port) else { return false }
        guard sharesDirectory else {
            guard let holder = ServerLock.holder(of: data) else { return false }
            return holder.pid == child && holder.url != nil
        }
        guard let said = printed(since: printedBefore) else { return FileManager.default.fileExists(atPath: credentialsFile.path) }
        return said.contains("Stratus listening on http://127.0.0.1:\(port)\n")
    }

    /// SIGTERM, waiting (at most 30 s, then SIGKILL) until the server has stopped.
    package func terminate() async {
        guard let child = running.withLock({ $0 }) else { return }
        await ChildProcess.terminate(child)
        running.withLock { $0 = nil }
    }

    /// Kills the server outright (`kill -9`: no request finishes, nothing is flushed but what the
    /// store committed) and waits until it is gone.
    package func kill() async {
        guard let child = running.withLock({ $0 }) else { return }
        await ChildProcess.kill(child)
        running.withLock { $0 = nil }
    }
}
