import Logging
import Synchronization

/// A log handler that keeps every entry (message and metadata), for tests that read the log.
final class LogRecorder: Sendable {
    struct Entry: Sendable {
        var message: String
        var metadata: [String: String]
    }

    private let entries = Mutex<[Entry]>([])

    var recorded: [Entry] { entries.withLock { $0 } }

    /// A logger at info level that records here.
    func logger() -> Logger {
        var logger = Logger(label: "stratus-test") { _ in Handler(recorder: self) }
        logger.logLevel = .info
        return logger
    }

    fileprivate func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    private struct Handler: LogHandler {
        let recorder: LogRecorder
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
            recorder.append(Entry(message: "\(event.message)", metadata: all.mapValues { "\($0)" }))
        }
    }
}
