import Foundation
/// The benchmark's output: one Markdown table row per workload, ready for BENCHMARKS.md.
struct Report {
    private var rows: [String] = [] {
        // Each row also goes to standard error as it is measured: a long run that fails late keeps what it had.
        didSet { if let last = rows.last { FileHandle.standardError.write(Data((last + "\n").utf8)) } }
    }
    private var notes: [String] = []

    mutating func add(_ name: String, _ result: LoadRunner.Result, itemsPerRequest: Int, limit: (name: String, itemsPerSecond: Double)? = nil) {
        let items = result.requestsPerSecond * Double(itemsPerRequest)
        var ratio = limit.map { " \(format(100 * items / $0.itemsPerSecond, 0)) % of \($0.name)" } ?? ""
        if let cpu = result.serverCPUSeconds, result.requests > 0 {
            ratio += (ratio.isEmpty ? " " : "; ") + "server CPU \(format(1e6 * cpu / Double(result.requests), 0)) µs/request"
        }
        rows.append(
            "| \(name) | \(format(result.requestsPerSecond, 0)) | \(format(items, 0)) | \(format(result.p50Milliseconds, 2)) | "
                + "\(format(result.p99Milliseconds, 2)) | \(result.failures) |\(ratio) |"
        )
    }

    /// The engine rows: its send and its fetch, records/s beside raw CKWS doing the same one
    /// request after another, and beside the concurrent batch row of the run (`batchRate`).
    mutating func add(
        _ engine: (engineSend: EngineScenarios.Leg, engineFetch: EngineScenarios.Leg, rawSend: EngineScenarios.Leg, rawFetch: EngineScenarios.Leg),
        batchRate: (name: String, itemsPerSecond: Double)?
    ) {
        let count = format(Double(engine.engineSend.records), 0)
        let legs: [(String, EngineScenarios.Leg, EngineScenarios.Leg?)] = [
            ("raw CKWS: \(count) creates, 200 a request, one after another", engine.rawSend, nil),
            ("CKSyncEngine: sendChanges() of \(count) records (first sync)", engine.engineSend, engine.rawSend),
            ("raw CKWS: changes/zone pages of 200 from the start, \(count) records", engine.rawFetch, nil),
            ("CKSyncEngine: fetchChanges() of \(count) records (a second device)", engine.engineFetch, engine.rawFetch),
        ]
        for (name, leg, raw) in legs {
            var notes: [String] = []
            if let raw, raw.recordsPerSecond > 0 { notes.append("\(format(100 * leg.recordsPerSecond / raw.recordsPerSecond, 0)) % of raw, one after another") }
            if name.contains("sendChanges"), let batchRate {
                notes.append("\(format(100 * leg.recordsPerSecond / batchRate.itemsPerSecond, 0)) % of \(batchRate.name)")
            }
            if let cpu = leg.serverCPUSeconds { notes.append("server CPU \(format(1e6 * cpu / Double(leg.records), 1)) µs/record") }
            rows.append("| \(name) | – | \(format(leg.recordsPerSecond, 0)) | – | – | 0 | \(notes.joined(separator: "; ")) |")
        }
    }

    mutating func addLimit(_ name: String, itemsPerSecond: Double) {
        rows.append("| \(name) | – | \(format(itemsPerSecond, 0)) | – | – | 0 | |")
    }

    /// A push row: delivery latency from a write's 200 at one listener count, the server's RSS meanwhile.
    mutating func add(_ delivery: PushScenarios.Delivery, writes: Int) {
        let rss = delivery.serverRSSMegabytes.map { "; server RSS \(format($0, 0)) MB with every poll held" } ?? ""
        let serverCPU = delivery.serverCPUMicroseconds.map { "; CPU per delivery: server \(format($0, 0)) µs" } ?? ""
        let listenersCPU = delivery.listenersCPUMicroseconds.map { ", listeners \(format($0, 0)) µs" } ?? ""
        let fromRequest = "from the write's request: p50 \(format(delivery.fromRequestP50Milliseconds, 2)) ms, "
            + "p99 \(format(delivery.fromRequestP99Milliseconds, 2)) ms"
        rows.append(
            "| push (\(delivery.mode.rawValue)): write → delivery, \(format(Double(delivery.listeners), 0)) listeners × \(writes) writes | – | "
                + "\(format(Double(delivery.listeners * writes), 0)) deliveries | \(format(delivery.p50Milliseconds, 2)) | "
                + "\(format(delivery.p99Milliseconds, 2)) | \(delivery.missed) | \(fromRequest)\(rss)\(serverCPU)\(listenersCPU) |"
        )
    }

    /// An asset row: transfers per second, MB/s against a plain file copy, the server's RSS.
    mutating func add(_ name: String, _ transfer: AssetScenarios.Transfer, copyMegabytesPerSecond: Double) {
        let rss = "server RSS \(format(transfer.rssBefore ?? 0, 0)) MB before, \(format(transfer.rssPeak ?? 0, 0)) MB at most"
        rows.append(
            "| \(name) | \(format(transfer.result.requestsPerSecond, 1)) | \(format(transfer.megabytesPerSecond, 0)) MB/s | "
                + "\(format(transfer.result.p50Milliseconds, 2)) | \(format(transfer.result.p99Milliseconds, 2)) | \(transfer.result.failures) | "
                + "\(format(100 * transfer.megabytesPerSecond / copyMegabytesPerSecond, 0)) % of file copy (\(format(copyMegabytesPerSecond, 0)) MB/s); \(rss) |"
        )
    }

    /// One workload through two clients: a row for the `baseline` (raw CKWS JSON) and one for the
    /// `candidate` (StratusCloudKit), with the candidate's items/s as a ratio of the baseline's.
    /// Each row also shows the CPU time per item, the server's and this process's (the client).
    mutating func addComparison(
        baseline: (name: String, result: LoadRunner.Result), candidate: (name: String, result: LoadRunner.Result), itemsPerRequest: Int
    ) {
        let items = Double(itemsPerRequest)
        let ratio = baseline.result.requestsPerSecond > 0 ? candidate.result.requestsPerSecond / baseline.result.requestsPerSecond : 0
        let versus = "module / raw = \(format(ratio, 3)) (\(format(100 * ratio, 1)) % of raw, overhead \(format(100 * (1 - ratio), 1)) %)"
        for (name, result, note) in [(baseline.name, baseline.result, ""), (candidate.name, candidate.result, versus)] {
            var cpu: [String] = []
            if let seconds = result.serverCPUSeconds, result.requests > 0 {
                cpu.append("server CPU \(format(1e6 * seconds / (Double(result.requests) * items), 1)) µs/record")
            }
            if let seconds = result.clientCPUSeconds, result.requests > 0 {
                cpu.append("bench CPU \(format(1e6 * seconds / (Double(result.requests) * items), 1)) µs/record")
            }
            let text = ([note].filter { !$0.isEmpty } + cpu).joined(separator: "; ")
            rows.append(
                "| \(name) | \(format(result.requestsPerSecond, 1)) | \(format(result.requestsPerSecond * items, 0)) | \(format(result.p50Milliseconds, 2)) | "
                    + "\(format(result.p99Milliseconds, 2)) | \(result.failures) | \(text) |"
            )
        }
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
