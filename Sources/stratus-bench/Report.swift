import Foundation
/// The benchmark's output: one Markdown table row per workload, ready for BENCHMARKS.md.
struct Report {
    private var rows: [String] = []
    private var notes: [String] = []

    mutating func add(_ name: String, _ result: LoadRunner.Result, itemsPerRequest: Int, limit: (name: String, itemsPerSecond: Double)? = nil) {
        let items = result.requestsPerSecond * Double(itemsPerRequest)
        let ratio = limit.map { " \(format(100 * items / $0.itemsPerSecond, 0)) % of \($0.name)" } ?? ""
        rows.append(
            "| \(name) | \(format(result.requestsPerSecond, 0)) | \(format(items, 0)) | \(format(result.p50Milliseconds, 2)) | "
                + "\(format(result.p99Milliseconds, 2)) | \(result.failures) |\(ratio) |"
        )
    }

    mutating func addLimit(_ name: String, itemsPerSecond: Double) {
        rows.append("| \(name) | – | \(format(itemsPerSecond, 0)) | – | – | 0 | |")
    }

    mutating func note(_ text: String) { notes.append(text) }

    var markdown: String {
        let header = """
            | workload | requests/s | items/s | p50 ms | p99 ms | failures | vs limit |
            |---|---:|---:|---:|---:|---:|---|
            """
        return ([header] + rows).joined(separator: "\n") + (notes.isEmpty ? "" : "\n\n" + notes.map { "- \($0)" }.joined(separator: "\n"))
    }

    private func format(_ value: Double, _ decimals: Int) -> String {
        var text = String(format: "%.\(decimals)f", value)
        if decimals == 0, let number = Int(text), number >= 10_000 {
            text = String(number).reversed().enumerated().map { $0.offset > 0 && $0.offset % 3 == 0 ? "\($0.element)," : "\($0.element)" }
                .reversed().joined()
            text = String(text)
        }
        return text
    }
}
