import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes started with `posix_spawn` and reaped with `waitpid`, without Foundation's
/// `Process`: on Linux its `run()` crashed (a bad `memcpy`) when tests launched servers at once,
/// and its `waitUntilExit()` spun for ever when called from another thread than `run()`. Each
/// child starts with the default action for every signal, in its parent's process group (so a
/// terminal's Ctrl-C reaches it too). StratusServerRun's `ServerProcess` starts `stratus serve`
/// with it, and `stratus exec` its command.
package enum ChildProcess {
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Starts `executable` with `arguments`; its output and errors are appended to `output`
    /// (`nil`: this process's own), its environment is this process's plus `environment`.
    package static func spawn(_ executable: String, _ arguments: [String], output: String?, environment: [String: String] = [:]) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #else
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let output {
            posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // Signals this process traps or ignores take their default action in the child.
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        posix_spawnattr_setsigmask(&attributes, &unblocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
        guard status == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// The executable `name` names: itself when it holds a `/`, else the first match on `PATH`.
    package static func resolve(_ name: String) -> String? {
        if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// How a child ended: its exit status, or the signal that ended it.
    package enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signaled(Int32)

        /// The status a shell reports for it (128 + the signal for a signal).
        package var shellStatus: Int32 {
            switch self {
            case .exited(let status): status
            case .signaled(let signal): 128 + signal
            }
        }
    }

    /// How `pid` ended, once it has (it is reaped then); `nil` while it runs.
    package static func ended(_ pid: pid_t) -> Ending? {
        var status: Int32 = 0
        let reaped = waitpid(pid, &status, WNOHANG)
        if reaped == 0 || (reaped == -1 && errno == EINTR) { return nil }
        if reaped == -1 { return .exited(-1) }
        // WIFEXITED / WEXITSTATUS / WTERMSIG, spelled out: the C macros are not imported.
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
    }

    /// Waits, without holding a thread, until `pid` has exited.
    package static func ending(of pid: pid_t) async -> Ending {
        while true {
            if let ending = ended(pid) { return ending }
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Whether `pid` still runs (an exited child is reaped here).
    package static func isRunning(_ pid: pid_t) -> Bool {
        ended(pid) == nil
    }

    /// SIGTERM, then waits without holding a thread (at most `seconds`, then SIGKILL) until
    /// `pid` has exited.
    package static func terminate(_ pid: pid_t, within seconds: Double = 30) async {
        guard isRunning(pid) else { return }
        _ = killSignal(pid, SIGTERM)
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline, isRunning(pid) { try? await Task.sleep(for: .milliseconds(10)) }
        if isRunning(pid) {
            _ = killSignal(pid, SIGKILL)
            _ = await ending(of: pid)
        }
    }

    /// SIGKILL (no handler runs, nothing is flushed), then waits until `pid` has exited.
    package static func kill(_ pid: pid_t) async {
        guard isRunning(pid) else { return }
        _ = killSignal(pid, SIGKILL)
        _ = await ending(of: pid)
    }
}

/// The C library's `kill`, under a name ``ChildProcess``'s own `kill` does not hide.
private func killSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
    kill(pid, signal)
}
