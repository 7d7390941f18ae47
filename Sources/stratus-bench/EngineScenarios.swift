import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import StratusCloudKit
import StratusModel

/// The first sync of a large library, which is what users wait for: `count` records sent by one
/// `CKSyncEngine` and fetched by another engine of the same account (a second device), each timed
/// from the call to its return, beside the same work done as raw CKWS JSON one request after
/// another (200-record `records/modify` creates, then 200-record `changes/zone` pages). Every
/// side works in a zone of its own, so a fetch reads exactly the records its send wrote.
struct EngineScenarios {
    /// One side's work: records per second and the server's CPU time per record.
    struct Leg {
        var records: Int
        var seconds: Double
        var serverCPUSeconds: Double?

        var recordsPerSecond: Double { seconds > 0 ? Double(records) / seconds : 0 }
    }

    let server: ServerUnderTest
    let client: HTTPClient
    private let container: CKContainer

    init(server: ServerUnderTest, client: HTTPClient) throws {
        let credentials = server.credentials
        guard let token = credentials.account("alice")?.webAuthToken, let url = URL(string: server.baseURL) else {
            throw BenchError("no account alice in the dev credentials")
        }
        let environment = StratusConnection.Environment(rawValue: credentials.environment) ?? .development
        let connection = StratusConnection(serverURL: url, apiToken: credentials.apiToken, webAuthToken: token, environment: environment)
        self.server = server
        self.client = client
        self.container = CKContainer(identifier: credentials.container, connection: connection)
    }

    /// The engine's send and fetch of `count` records, and raw CKWS's.
    func measure(count: Int) async throws -> (engineSend: Leg, engineFetch: Leg, rawSend: Leg, rawFetch: Leg) {
        let run = UUID().uuidString.prefix(8)
        let zoneID = CKRecordZone.ID(zoneName: "Engine-\(run)")
        let sender = BenchLibrary(records: (0..<count).map { CloudKitScenarios.destination("\(run)-\($0)", in: zoneID) })
        let engineSend = try await timed(records: count) {
            let engine = CKSyncEngine(Self.configuration(self.container.privateCloudDatabase, delegate: sender))
            engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: zoneID))])
            engine.state.add(pendingRecordZoneChanges: await sender.pendingSaves)
            try await engine.sendChanges()
            guard engine.state.pendingRecordZoneChanges.isEmpty else { throw BenchError("the engine left changes unsent") }
        }
        let receiver = BenchLibrary(records: [])
        let engineFetch = try await timed(records: count) {
            let engine = CKSyncEngine(Self.configuration(self.container.privateCloudDatabase, delegate: receiver))
            try await engine.fetchChanges(CKSyncEngine.FetchChangesOptions(scope: .zoneIDs([zoneID])))
            let fetched = await receiver.fetched
            guard fetched == count else { throw BenchError("the engine fetched \(fetched) of \(count) records") }
        }
        let rawZone = "EngineRaw-\(run)"
        try await createZone(rawZone)
        let rawSend = try await timed(records: count) { try await rawSends(count: count, zone: rawZone, run: String(run)) }
        let rawFetch = try await timed(records: count) {
            let fetched = try await rawFetches(zone: rawZone)
            guard fetched == count else { throw BenchError("raw pages held \(fetched) of \(count) records") }
        }
        return (engineSend, engineFetch, rawSend, rawFetch)
    }

    /// A manual engine, as an app's first launch makes one (nothing saved yet).
    private static func configuration(_ database: CKDatabase, delegate: BenchLibrary) -> CKSyncEngine.Configuration {
        var configuration = CKSyncEngine.Configuration(database: database, stateSerialization: nil, delegate: delegate)
        configuration.automaticallySync = false
        return configuration
    }

    private func timed(records: Int, _ work: () async throws -> Void) async throws -> Leg {
        let cpuBefore = server.cpuSeconds()
        let start = ContinuousClock.now
        try await work()
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpu = server.cpuSeconds().flatMap { after in cpuBefore.map { after - $0 } }
        return Leg(records: records, seconds: seconds, serverCPUSeconds: cpu)
    }

    /// `count` creates in batches of 200, one request after another, every answer decoded.
    private func rawSends(count: Int, zone: String, run: String) async throws {
        for start in stride(from: 0, to: count, by: 200) {
            let names = (start..<min(start + 200, count)).map { "\(run)-raw-\($0)" }
            let request = ModifyRecordsRequest(
                operations: names.map { RecordOperation(.create, Workload.destination($0)) }, zoneID: ZoneID(zoneName: zone), atomic: false
            )
            let response = try await client.execute(.post(server.url("records/modify"), body: JSONEncoder().encode(request)), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            let answer = try JSONDecoder().decode(RecordsResponse.self, from: Data(buffer: body))
            guard answer.records.allSatisfy({ $0.value != nil }) else { throw BenchError("a raw create failed") }
        }
    }

    /// The zone's changes from the start, pages of 200 one after another, every page decoded.
    private func rawFetches(zone: String) async throws -> Int {
        var token: String?
        var fetched = 0
        while true {
            let request = ZoneChangesRequest(zones: [.init(zoneID: ZoneID(zoneName: zone), syncToken: token, resultsLimit: 200)])
            let response = try await client.execute(.post(server.url("changes/zone"), body: JSONEncoder().encode(request)), timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 64 << 20)
            let answer = try JSONDecoder().decode(ZoneChangesResponse.self, from: Data(buffer: body))
            guard case .success(let page)? = answer.zones.first else { throw BenchError("a raw change page failed") }
            fetched += page.records.count
            token = page.syncToken
            if !page.moreComing { return fetched }
        }
    }

    private func createZone(_ name: String) async throws {
        let body = try JSONEncoder().encode(ModifyZonesRequest(operations: [.init(.create, ZoneID(zoneName: name))]))
        let response = try await client.execute(.post(server.url("zones/modify"), body: body), timeout: .seconds(10))
        _ = try await response.body.collect(upTo: 1 << 20)
        guard response.status == .ok else { throw BenchError("zone \(name) not created") }
    }
}

/// An app's library as the engine's delegate sees it: the records to send, handed over in the
/// engine's batches (`RecordZoneChangeBatch(pendingChanges:recordProvider:)`, as Apple's sample
/// does), and a count of the records a fetch delivered.
actor BenchLibrary: CKSyncEngineDelegate {
    private let records: [CKRecord.ID: CKRecord]
    private let order: [CKRecord.ID]
    private(set) var fetched = 0

    init(records: [CKRecord]) {
        self.records = Dictionary(records.map { ($0.recordID, $0) }, uniquingKeysWith: { $1 })
        self.order = records.map(\.recordID)
    }

    var pendingSaves: [CKSyncEngine.PendingRecordZoneChange] { order.map { .saveRecord($0) } }

    func handleEvent(_ event: CKSyncEngine.Event, syncEngine: CKSyncEngine) async {
        if case .fetchedRecordZoneChanges(let changes) = event { fetched += changes.modifications.count }
    }

    func nextRecordZoneChangeBatch(_ context: CKSyncEngine.SendChangesContext, syncEngine: CKSyncEngine) async -> CKSyncEngine.RecordZoneChangeBatch? {
        let pending = syncEngine.state.pendingRecordZoneChanges.filter { context.options.scope.contains($0) }
        let records = self.records
        return await CKSyncEngine.RecordZoneChangeBatch(pendingChanges: pending) { records[$0] }
    }
}
