import Foundation

/// How an admin subcommand prints the server's answer: for people by default — a list of objects
/// as a table, an object as `key: value` lines — or, with `--json`, the JSON itself on one line
/// with its keys sorted (stable, for scripts).
enum AdminOutput {
    static func render(_ answer: Data, json: Bool) -> String {
        guard let value = try? JSONSerialization.jsonObject(with: answer, options: [.fragmentsAllowed]) else {
            return String(decoding: answer, as: UTF8.self)
        }
        if json { return encode(value, pretty: false) }
        guard let object = value as? [String: Any] else { return encode(value, pretty: true) }
        // `{"faults": [{…}, {…}]}`: the list is the answer.
        if object.count == 1, let list = object.values.first as? [Any] { return list.isEmpty ? "(none)" : rows(list) }
        return object.keys.sorted().map { key in "\(key): \(scalar(object[key] as Any))" }.joined(separator: "\n")
    }

    /// A table of objects (a column per key, in sorted order), or a list of scalars one a line.
    private static func rows(_ list: [Any]) -> String {
        let objects = list.compactMap { $0 as? [String: Any] }
        guard objects.count == list.count else { return list.map(scalar).joined(separator: "\n") }
        let columns = Array(Set(objects.flatMap(\.keys))).sorted()
        let cells = objects.map { object in columns.map { object[$0].map(scalar) ?? "" } }
        let widths = columns.indices.map { column in ([columns[column]] + cells.map { $0[column] }).map(\.count).max() ?? 0 }
        func line(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        return ([line(columns.map { $0.uppercased() })] + cells.map(line)).joined(separator: "\n")
    }

    private static func scalar(_ value: Any) -> String {
        switch value {
        case let text as String: text
        case let number as NSNumber: "\(number)"
        case is NSNull: "-"
        default: encode(value, pretty: false)
        }
    }

    private static func encode(_ value: Any, pretty: Bool) -> String {
        var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
        if pretty { options.insert(.prettyPrinted) }
        guard let data = try? JSONSerialization.data(withJSONObject: value, options: options) else { return "\(value)" }
        return String(decoding: data, as: UTF8.self)
    }
}
