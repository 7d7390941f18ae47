import Foundation
import StratusModel
import StratusProcess

/// `stratus serve --dev` run by `stratus exec` as a child process of this one, on
/// 127.0.0.1: started, waited for until it answers with its credentials seeded, stopped.
struct DevServerProcess {
    let pid: pid_t
    let url: String
    let credentialsFile: URL
    let credentials: DevCredentials

    /// Why the server did not start, said plainly.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts the server on `port` (a free one when `nil`; another is tried when the one
    /// picked is taken meanwhile) over `data`, with `serveOptions` as `serve` takes them; its
    /// output goes to `log` (`nil`: this terminal).
    static func start(data: URL, port: Int?, serveOptions: [String], log: String?) async throws -> DevServerProcess {
        // This very binary: `serve` of the same build.
        guard let binary = Bundle.main.executableURL?.path ?? ChildProcess.resolve(CommandLine.arguments[0]) else {
            throw Failure(description: "cannot find the stratus binary to start the server (\(CommandLine.arguments[0]))")
        }
        for attempt in 1...5 {
            let chosen = try port ?? FreePort.pick()
            let arguments = ["serve", "--dev", "--host", "127.0.0.1", "--port", String(chosen), "--data", data.path] + serveOptions
            let pid = try ChildProcess.spawn(binary, arguments, output: log)
            switch await waitUntilReady(pid: pid, port: chosen, data: data) {
            case .ready(let credentials):
                return DevServerProcess(
                    pid: pid, url: "http://127.0.0.1:\(chosen)", credentialsFile: data.appendingPathComponent("dev-credentials.json"), credentials: credentials
                )
            case .exited(let status):
                let said = log.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? ""
                if said.lowercased().contains("address already in use") {
                    if port != nil { throw Failure(description: "port \(chosen) is taken: another server listens there (omit --port to use a free one)") }
                    if attempt < 5 { continue }
                }
                let tail = said.split(separator: "\n").suffix(5).joined(separator: "\n")
                throw Failure(description: "the server did not start (exit status \(status))" + (tail.isEmpty ? "" : ":\n\(tail)"))
            case .timedOut:
                await ChildProcess.terminate(pid)
                throw Failure(description: "the server did not answer within 60 s" + (log.map { "; see \($0)" } ?? ""))
            }
        }
        throw Failure(description: "no free port could be bound")
    }

    private enum Readiness {
        case ready(DevCredentials)
        case exited(Int32)
        case timedOut
    }

    /// Waits until the server listens with its dev credentials written for this port.
    private static func waitUntilReady(pid: pid_t, port: Int, data: URL) async -> Readiness {
        let file = data.appendingPathComponent("dev-credentials.json")
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let ending = ChildProcess.ended(pid) { return .exited(ending.shellStatus) }
            if FreePort.answers(port), let bytes = try? Data(contentsOf: file),
                let credentials = try? JSONDecoder().decode(DevCredentials.self, from: bytes), credentials.serverURL.hasSuffix(":\(port)")
            {
                return .ready(credentials)
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return .timedOut
    }

    /// What the command finds in its environment.
    func environment(firstContainer: String?) -> [String: String] {
        [
            "STRATUS_URL": url,
            "STRATUS_CREDENTIALS": credentialsFile.path,
            "STRATUS_ACCOUNT": "alice",
            "STRATUS_ADMIN_TOKEN": credentials.adminToken,
            "STRATUS_CONTAINER": firstContainer ?? credentials.container,
        ]
    }

    /// SIGTERM, waiting (at most 30 s, then SIGKILL) until the server has stopped.
    func stop() async {
        await ChildProcess.terminate(pid)
    }
}
