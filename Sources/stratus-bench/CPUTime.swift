import Foundation

/// CPU time (user and system) of a process, from `/proc/<pid>/stat`: what a workload cost the
/// server or the bench itself, whatever else ran on the machine meanwhile.
enum CPUTime {
    /// The CPU seconds process `pid` has used; `nil` when its `stat` cannot be read.
    static func seconds(ofProcess pid: Int32) -> Double? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        // After the command's closing parenthesis: state is field 3; utime and stime are 14 and 15.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// The CPU seconds this process has used.
    static func ofThisProcess() -> Double? {
        seconds(ofProcess: getpid())
    }

    /// The CPU time between two readings, in microseconds per item (`nil` if either is missing).
    static func microseconds(from before: Double?, to after: Double?, per items: Double) -> Double? {
        guard let before, let after, items > 0 else { return nil }
        return 1e6 * (after - before) / items
    }
}
