import AsyncHTTPClient
import Foundation
import Histogram
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusCloudKit
import StratusModel

/// The module's overhead: records saved per second through StratusCloudKit's
/// `modifyRecords(saving:deleting:savePolicy:atomically:)` against the same server through raw
/// CKWS JSON (`records/modify` POSTs). Both save batches of the bench's `Destination` rows
/// into its custom zone (``Workload/zone``), as alice, at the same concurrency, alternating in
/// one run. The target: the module keeps at least 85 % of the raw rate.
///
/// Both sides are timed the same way. Each exchange builds its records (wire `Record`s for the
/// raw body, `CKRecord`s for the module), sends them through `HTTPClient.shared` (the client a
/// `CKContainer` uses, so both sides share one connection pool and its configuration), and reads
/// the per-record results of the answer. A batch counts as a success only when every record in
/// it was saved. Unlike the `batch` row, the raw side decodes its answer here, as any client that
/// checks its saves must. What separates the two rows is then the module's own work: `CKRecord`
/// values to wire fields and back, the per-record result dictionaries, and the asset scan.
struct CloudKitScenarios {
    let runner: LoadRunner
    let duration: Duration
    private let server: ServerUnderTest
    /// alice's container on each server instance (one unless `--instances`), taken in turn as
    /// the raw side's ``ServerUnderTest/url(_:account:)`` takes the instances.
    private let containers: [CKContainer]
    private let zoneID = CKRecordZone.ID(zoneName: Workload.zone)

    /// The module's side connects with the bench's credentials: the server's API token and
    /// alice's web auth token, in the container and environment the dev server seeded.
    init(server: ServerUnderTest, runner: LoadRunner, duration: Duration) throws {
        let credentials = server.credentials
        guard let token = credentials.account("alice")?.webAuthToken else { throw BenchError("no account alice in the dev credentials") }
        let environment = StratusConnection.Environment(rawValue: credentials.environment) ?? .development
        let containers = try server.instanceURLs.map { base -> CKContainer in
            guard let url = URL(string: base) else { throw BenchError("bad server URL \(base)") }
            let connection = StratusConnection(serverURL: url, apiToken: credentials.apiToken, webAuthToken: token, environment: environment)
            return CKContainer(identifier: credentials.container, connection: connection)
        }
        guard !containers.isEmpty else { throw BenchError("no server instance to connect to") }
        self.server = server
        self.runner = runner
        self.duration = duration
        self.containers = containers
    }

    /// Each client's runs of `perRequest`-record batches, `concurrency` at a time: `rounds` runs
    /// of each, in the order raw, module, module, raw, … so that drift on a shared machine falls
    /// on both sides. Each side's runs are pooled into one result.
    func compare(perRequest: Int, concurrency: Int, rounds: Int) async throws -> (raw: LoadRunner.Result, module: LoadRunner.Result) {
        var raw: [LoadRunner.Result] = []
        var module: [LoadRunner.Result] = []
        for round in 0..<max(rounds, 1) {
            if round.isMultiple(of: 2) {
                raw.append(try await rawSaves(perRequest: perRequest, concurrency: concurrency))
                module.append(try await moduleSaves(perRequest: perRequest, concurrency: concurrency))
            } else {
                module.append(try await moduleSaves(perRequest: perRequest, concurrency: concurrency))
                raw.append(try await rawSaves(perRequest: perRequest, concurrency: concurrency))
            }
        }
        guard let pooledRaw = LoadRunner.Result.pooled(raw), let pooledModule = LoadRunner.Result.pooled(module) else {
            throw BenchError("the cloudkit workload measured nothing")
        }
        return (pooledRaw, pooledModule)
    }

    /// Raw CKWS JSON: the `batch` row's `records/modify` body of `perRequest` creates
    /// (``Workload/createBody(_:)``, not atomic), POSTed, its answer decoded and every entry
    /// checked.
    func rawSaves(perRequest: Int, concurrency: Int) async throws -> LoadRunner.Result {
        let run = UUID().uuidString
        let server = server
        return try await runner.measuredLoop(concurrency: concurrency, duration: duration) { worker, sequence in
            let names = (0..<perRequest).map { "\(run)-raw-\(worker)-\(sequence)-\($0)" }
            let request = HTTPClientRequest.post(server.url("records/modify"), body: Workload.createBody(names))
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            guard response.status == .ok else { return false }
            let answer = try JSONDecoder().decode(RecordsResponse.self, from: body)
            return answer.records.count == names.count && answer.records.allSatisfy { $0.value != nil }
        }
    }

    /// StratusCloudKit: `perRequest` new `CKRecord`s with the same fields, saved through
    /// `privateCloudDatabase.modifyRecords`. Records that were never fetched are sent as creates
    /// under `.ifServerRecordUnchanged`, like the raw body. Not atomic, like the raw body. Every
    /// save result is checked.
    func moduleSaves(perRequest: Int, concurrency: Int) async throws -> LoadRunner.Result {
        let run = UUID().uuidString
        let containers = containers
        let zoneID = zoneID
        let turn = ManagedAtomicCounter()
        return try await runner.measuredLoop(concurrency: concurrency, duration: duration) { worker, sequence in
            let records = (0..<perRequest).map { Self.destination("\(run)-module-\(worker)-\(sequence)-\($0)", in: zoneID) }
            let database = containers[turn.next() % containers.count].privateCloudDatabase
            let (saves, _) = try await database.modifyRecords(
                saving: records, deleting: [], savePolicy: .ifServerRecordUnchanged, atomically: false
            )
            return saves.count == records.count && saves.values.allSatisfy { (try? $0.get()) != nil }
        }
    }

    /// A `Destination` as an app makes one: the raw body's fields (``Workload/destination(_:)``)
    /// set on a `CKRecord` (a `Date`, `Data` and two strings).
    static func destination(_ name: String, in zoneID: CKRecordZone.ID) -> CKRecord {
        let record = CKRecord(recordType: "Destination", recordID: CKRecord.ID(recordName: name, zoneID: zoneID))
        record["caption"] = Workload.caption(name)
        record["details"] = Workload.details
        record["createdAt"] = Date(timeIntervalSince1970: Double(Workload.createdAtMilliseconds) / 1000)
        record["image"] = Workload.image
        return record
    }
}

extension LoadRunner.Result {
    /// Several runs of one workload as one: requests, failures and seconds summed, latencies
    /// pooled. A CPU time is summed only when every run has one. `nil` when there are no runs.
    static func pooled(_ runs: [LoadRunner.Result]) -> LoadRunner.Result? {
        guard var total = runs.first else { return nil }
        for run in runs.dropFirst() {
            total.requests += run.requests
            total.failures += run.failures
            total.seconds += run.seconds
            total.histogram.add(run.histogram)
        }
        total.serverCPUSeconds = sum(runs.map(\.serverCPUSeconds))
        total.clientCPUSeconds = sum(runs.map(\.clientCPUSeconds))
        return total
    }

    private static func sum(_ values: [Double?]) -> Double? {
        let known = values.compactMap { $0 }
        return known.count == values.count ? known.reduce(0, +) : nil
    }
}
