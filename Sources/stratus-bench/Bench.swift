import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import StratusProcess

/// `stratus-bench`: drives a Stratus server over HTTP and prints requests/s and p50/p99 for each
/// workload beside the limit measured in the same run (the echo route, a raw SQLite insert).
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stratus-bench",
        abstract: "Benchmark a Stratus server (started here unless --credentials is given)."
    )

    @Option(help: "Seconds per measured workload.") var seconds = 10
    @Option(help: "Concurrency of the single-create and echo workloads.") var concurrency = 64
    @Option(help: "Concurrency of the 200-create batches.") var batchConcurrency = 4
    @Option(help: "Zone sizes for the change-page workload (comma separated).") var zoneSizes = "10000,1000000"
    @Option(help: "Port for the server started here.") var port = 8199
    @Option(help: "Path of the stratus binary to start (default: beside this one).") var stratusBinary: String?
    @Option(help: "dev-credentials.json of a running server to target instead.") var credentials: String?
    @Option(help: "Server URL when targeting a running server.") var server: String?
    @Option(help: "Records in the query workload's zone.") var queryZoneSize = 100_000
    @Option(help: "Workloads to run (comma separated): echo,single,batch,raw,cloudkit,engine,changes,queries,push,assets.")
    var only = "echo,single,batch,raw,cloudkit,engine,changes,queries,push,assets"
    @Option(help: "Runs of each client in the cloudkit workload (raw, module, module, raw, …), --seconds each.")
    var cloudkitRounds = 2
    @Option(help: "Records one CKSyncEngine sends and another fetches in the engine workload.") var engineRecords = 10_000
    @Option(help: "Asset sizes in MB for the assets workload (comma separated).") var assetSizes = "1,20"
    @Option(help: "Concurrency of the assets workload.") var assetConcurrency = 8
    @Option(help: "Listener counts for the push workload (comma separated).") var pushListeners = "1,100,1000,10000"
    @Option(help: "Writes per listener count in the push workload.") var pushWrites = 20
    @Option(help: "Listener counts that also receive over server-sent events.") var pushStreams = "1000,10000"
    @Flag(inversion: .prefixedNo, help: "Whether the push workload also measures the write rate beside listeners.")
    var pushWriteRates = true
    @Option(help: "Store URL for the servers started here (postgres://…); default: SQLite in a temp directory.") var store: String?
    @Option(help: "Server instances started here on one store (consecutive ports); requests alternate between them.")
    var instances = 1

    func run() async throws {
        OpenFileLimit.raise()
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = max(concurrency, 8)
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let target: ServerUnderTest
        if let credentials {
            target = try ServerUnderTest(credentialsFile: URL(fileURLWithPath: credentials), serverURL: server)
        } else {
            let binary = stratusBinary.map { URL(fileURLWithPath: $0) }
                ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stratus")
            target = try await ServerUnderTest(startingBinary: binary, port: port, store: store, instances: instances)
        }
        do {
            try await measure(target, client: client)
        } catch {
            await target.stop()
            try? await client.shutdown()
            throw error
        }
        await target.stop()
        try await client.shutdown()
    }

    private func measure(_ target: ServerUnderTest, client: HTTPClient) async throws {
        let workloads = Set(only.split(separator: ",").map(String.init))
        let scenarios = Scenarios(server: target, runner: LoadRunner(client: client, serverCPU: { target.cpuSeconds() }), duration: .seconds(seconds))
        var report = Report()
        try await scenarios.createZone(Workload.zone)
        var echoRate: Double?
        if workloads.contains("echo") {
            let echo = try await scenarios.echo(concurrency: concurrency)
            echoRate = echo.requestsPerSecond
            report.add("echo route (limit), c=\(concurrency)", echo, itemsPerRequest: 1)
        }
        if workloads.contains("single") {
            let single = try await scenarios.singleCreates(concurrency: concurrency, run: UUID().uuidString)
            report.add("single-record creates, c=\(concurrency)", single, itemsPerRequest: 1, limit: echoRate.map { ("echo", $0) })
        }
        var rawRate: Double?
        var batchRate: Double?
        if workloads.contains("raw") {
            let rate = try RawInsert.rowsPerSecond(rows: 100_000, batch: 200)
            rawRate = rate
            report.addLimit("raw SQLite insert, batches of 200 (limit)", itemsPerSecond: rate)
        }
        if workloads.contains("batch") {
            let batch = try await scenarios.batchCreates(perRequest: 200, concurrency: batchConcurrency, run: UUID().uuidString)
            batchRate = batch.requestsPerSecond * 200
            report.add("records/modify × 200 creates, c=\(batchConcurrency)", batch, itemsPerRequest: 200, limit: rawRate.map { ("raw insert", $0) })
        }
        if workloads.contains("cloudkit") {
            // The module's overhead: the same 200-record saves through StratusCloudKit and as raw CKWS JSON.
            let cloudKit = try CloudKitScenarios(server: target, runner: scenarios.runner, duration: .seconds(seconds))
            let (raw, module) = try await cloudKit.compare(perRequest: 200, concurrency: batchConcurrency, rounds: cloudkitRounds)
            let runs = "c=\(batchConcurrency), \(max(cloudkitRounds, 1)) × \(seconds) s"
            report.addComparison(
                baseline: ("raw CKWS JSON: records/modify × 200 creates, answer decoded, \(runs)", raw),
                candidate: ("StratusCloudKit: modifyRecords × 200 CKRecords, \(runs)", module), itemsPerRequest: 200
            )
        }
        if workloads.contains("engine") {
            // The first sync of a large library: one engine sends, another of the same account fetches.
            let engine = try await EngineScenarios(server: target, client: client).measure(count: engineRecords)
            report.add(engine, batchRate: batchRate.map { ("records/modify × 200 creates, c=\(batchConcurrency)", $0) })
        }
        if workloads.contains("changes") {
            for size in zoneSizes.split(separator: ",").compactMap({ Int($0) }) {
                let zone = "Pages\(size)"
                try await scenarios.createZone(zone)
                let start = ContinuousClock.now
                try await scenarios.populate(zone: zone, count: size)
                report.note("populated \(zone) with \(size) records in \(ContinuousClock.now - start)")
                let pages = try await scenarios.changePages(zone: zone, count: size)
                report.add("changes/zone page of 200, zone of \(size)", pages, itemsPerRequest: 200)
            }
        }
        if workloads.contains("queries") {
            let queries = QueryScenarios(scenarios: scenarios)
            let start = ContinuousClock.now
            try await queries.populate(count: queryZoneSize)
            report.note("populated the query zone with \(queryZoneSize) records in \(ContinuousClock.now - start)")
            report.add("query: equality, unindexed, zone of \(queryZoneSize)", try await queries.equality(count: queryZoneSize), itemsPerRequest: 1)
            report.add("query: sorted range page, unindexed", try await queries.sortedRange(count: queryZoneSize), itemsPerRequest: 1)
            try await queries.addIndexes()
            report.add("query: equality, indexed", try await queries.equality(count: queryZoneSize), itemsPerRequest: 1)
            report.add("query: sorted range page, indexed", try await queries.sortedRange(count: queryZoneSize), itemsPerRequest: 1)
        }
        if workloads.contains("push") { try await measurePush(target, client: client, scenarios: scenarios, report: &report) }
        if workloads.contains("assets") {
            let assets = AssetScenarios(server: target, client: client, duration: .seconds(seconds))
            for megabytes in assetSizes.split(separator: ",").compactMap({ Int($0) }) {
                let size = megabytes << 20
                let copy = try AssetScenarios.fileCopy(size: size)
                let (uploads, asset) = try await assets.uploads(size: size, concurrency: assetConcurrency)
                report.add("asset upload, \(megabytes) MB, c=\(assetConcurrency)", uploads, copyMegabytesPerSecond: copy)
                let downloads = try await assets.downloads(of: asset, size: size, concurrency: assetConcurrency)
                report.add("asset download, \(megabytes) MB, c=\(assetConcurrency)", downloads, copyMegabytesPerSecond: copy)
            }
        }
        print(report.markdown)
    }

    private func measurePush(_ target: ServerUnderTest, client: HTTPClient, scenarios: Scenarios, report: inout Report) async throws {
        let push = PushScenarios(server: target, client: client)
        let counts = pushListeners.split(separator: ",").compactMap { Int($0) }
        guard pushWriteRates else {
            try await push.subscribe(account: "alice")
            return try await measureDelivery(push, counts: counts, report: &report)
        }
        let without = try await scenarios.singleCreates(concurrency: concurrency, run: UUID().uuidString)
        report.add("single-record creates, c=\(concurrency), no subscription", without, itemsPerRequest: 1)
        // Another account's 100 devices, subscribed and listening, whom alice's writes do not concern.
        let bystanders = try await push.tokens(100, prefix: "bob-device", account: "bob")
        try await push.subscribe(account: "bob")
        let idle = try await push.writesWhileListening(bystanders, scenarios: scenarios, concurrency: concurrency, run: UUID().uuidString)
        report.add(
            "single-record creates, c=\(concurrency), 100 other devices listening", idle, itemsPerRequest: 1,
            limit: ("no listeners", without.requestsPerSecond)
        )
        try await push.subscribe(account: "alice")
        try await measureDelivery(push, counts: counts, report: &report)
        // The same writes with alice subscribed, first with none of her devices listening (every
        // write still appends a notification to her feed), then with 100 of them receiving each.
        let subscribed = try await scenarios.singleCreates(concurrency: concurrency, run: UUID().uuidString)
        report.add(
            "single-record creates, c=\(concurrency), the writer subscribed, no device listening", subscribed, itemsPerRequest: 1,
            limit: ("no subscription", without.requestsPerSecond)
        )
        let listening = try await push.tokens(100, prefix: "busy")
        let with = try await push.writesWhileListening(listening, scenarios: scenarios, concurrency: concurrency, run: UUID().uuidString)
        report.add(
            "single-record creates, c=\(concurrency), 100 of the writer's devices receiving every change", with, itemsPerRequest: 1,
            limit: ("subscribed, no listener", subscribed.requestsPerSecond)
        )
    }

    /// Delivery to each listener count, by long-poll and then by stream.
    private func measureDelivery(_ push: PushScenarios, counts: [Int], report: inout Report) async throws {
        let streams = pushStreams.split(separator: ",").compactMap { Int($0) }
        let runs = counts.map { ($0, PushScenarios.Mode.longPoll) } + streams.map { ($0, PushScenarios.Mode.events) }
        for (count, mode) in runs {
            // Fresh tokens each time: a listener's feed starts when its token is made.
            let urls = try await push.tokens(count, prefix: "listener-\(mode.rawValue)-\(count)")
            let delivery = try await push.delivery(urls, mode: mode, writes: pushWrites, run: UUID().uuidString)
            report.add(delivery, writes: pushWrites)
        }
    }
}
