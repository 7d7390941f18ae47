import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Child processes started with `posix_spawn` and reaped with `waitpid`, without Foundation's
/// `Process`: on Linux its `run()` crashed (a bad `memcpy`) when tests launched servers at once,
/// and its `waitUntilExit()` spun for ever when called from another thread than `run()`.
enum ChildProcess {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts `executable` with `arguments`, its output and errors appended to `output`.
    static func spawn(_ executable: String, _ arguments: [String], output: String) throws -> pid_t {
        #if os(Linux)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        guard status == 0 else { throw Failure(description: "posix_spawn \(executable): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Whether `pid` still runs (an exited child is reaped here).
    static func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Waits for `pid` to exit and answers its exit status (-1 when it did not exit normally).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, spelled out: the C macros are not imported.
        return status & 0x7f == 0 ? (status >> 8) & 0xff : -1
    }

    /// SIGTERM, then waits (at most `seconds`, then SIGKILL) until `pid` has exited.
    static func terminate(_ pid: pid_t, within seconds: Double = 30) {
        guard isRunning(pid) else { return }
        kill(pid, SIGTERM)
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, isRunning(pid) { usleep(10_000) }
        if isRunning(pid) {
            kill(pid, SIGKILL)
            _ = wait(pid)
        }
    }
}
