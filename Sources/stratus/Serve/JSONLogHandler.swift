import Foundation
import ArgumentParser
import Logging

/// `stratus serve --log-format json`: each log entry as one JSON object on standard output —
/// `time`, `level`, `label`, `message`, then the entry's metadata as string fields (a request's
/// line: `status`, `container`, `database`, `zones`, `account`, `item_errors`, …).
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields: [String: String] = [:]
        for (key, value) in metadata.merging(metadataProvider?.get() ?? [:], uniquingKeysWith: { _, new in new }) {
            fields[key] = "\(value)"
        }
        for (key, value) in event.metadata ?? [:] { fields[key] = "\(value)" }
        fields["time"] = Date().formatted(.iso8601)
        fields["level"] = event.level.rawValue
        fields["label"] = label
        fields["message"] = "\(event.message)"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(fields) else { return }
        line.append(0x0A)
        FileHandle.standardOutput.write(line)
    }
}

/// How `stratus serve` writes its log.
enum LogFormat: String, ExpressibleByArgument, CaseIterable {
    /// swift-log's stream format: `date level label: key=value … message`.
    case text
    /// One JSON object a line (``JSONLogHandler``).
    case json
}
