import Foundation
import StratusKit
import StratusModel
import Synchronization
import Testing

/// The send loop against a real server, with an engine of its own and the plainest delegate:
/// records to save come from a dictionary, events are written down.
@Suite("SyncEngine: sending")
struct SyncEngineSendTests {
    /// The plainest delegate: records from a table, every event's name logged.
    final class Recorder: SyncEngineDelegate {
        let records: [String: Record]
        private let log = Mutex<[String]>([])
        private let failures = Mutex<[String: CloudError.Code]>([:])
        private let deletions = Mutex<[String: String]>([:])
        /// What the app's own mirror would say a record's type is.
        let types: [String: String]

        init(records: [String: Record], types: [String: String] = [:]) {
            self.records = records
            self.types = types
        }

        /// Deleted records' types as the fetch reported them, by name.
        var deletedTypes: [String: String] { deletions.withLock { $0 } }

        func recordType(of id: SyncRecordID, syncEngine: SyncEngine) async -> String? { types[id.recordName] }

        var events: [String] { log.withLock { $0 } }
        var failed: [String: CloudError.Code] { failures.withLock { $0 } }

        func recordToSave(_ id: SyncRecordID, syncEngine: SyncEngine) async -> RecordOperation? {
            records[id.recordName].map { RecordOperation(.forceReplace, $0) }
        }

        func handleEvent(_ event: SyncEngineEvent, syncEngine: SyncEngine) async throws {
            let name = String(describing: event).prefix { $0 != "(" }
            log.withLock { $0.append(String(name)) }
            if case .fetchedRecordZoneChanges(_, let deleted) = event {
                deletions.withLock { table in
                    for deletion in deleted { table[deletion.recordID.recordName] = deletion.recordType ?? "?" }
                }
            }
            if case .sentRecordZoneChanges(_, _, let failed, _) = event {
                failures.withLock { table in
                    for failure in failed { table[failure.record.recordName ?? ""] = failure.error.code }
                }
            }
        }
    }

    static func engine(_ journal: Journal, credentials: CloudCredentials, delegate: Recorder, state: SyncEngineState? = nil, batchBytes: Int? = nil) -> SyncEngine {
        let container = CloudContainer(identifier: Journal.container, serverURL: journal.serverURL, credentials: credentials)
        var configuration = SyncEngine.Configuration(database: container.privateCloudDatabase, container: container)
        if let batchBytes { configuration.batchBytes = batchBytes }
        return SyncEngine(configuration: configuration, state: state, delegate: delegate)
    }

    /// Every `will…` matched by its `did…`, in order.
    static func paired(_ events: [String]) -> Bool {
        var open = 0
        for event in events {
            if event == "willSendChanges" { open += 1 }
            if event == "didSendChanges" { open -= 1; if open < 0 { return false } }
        }
        return open == 0
    }

    @Test("ten 700 KB records and 300 small ones reach the server; an oversized one fails alone")
    func largeAndManyRecords() async throws {
        try await Journal.run { journal in
            let zone = ZoneID(zoneName: "Bulk", ownerRecordName: journal.userRecordName("alice"))
            _ = try await journal.container(as: "alice").privateCloudDatabase.modifyZones(saving: [zone])
            var records: [String: Record] = [:]
            for index in 0..<10 { records["big\(index)"] = Record(recordName: "big\(index)", recordType: "Photo", fields: ["data": .string(String(repeating: "p", count: 700_000))]) }
            for index in 0..<300 { records["small\(index)"] = Record(recordName: "small\(index)", recordType: "Note", fields: ["n": .int64(Int64(index))]) }
            records["huge"] = Record(recordName: "huge", recordType: "Photo", fields: ["data": .string(String(repeating: "h", count: 1_100_000))])
            let delegate = Recorder(records: records)
            // No byte budget on the client: the server's body limit makes the engine halve batches.
            let engine = SyncEngineSendTests.engine(journal, credentials: journal.account("alice").credentials, delegate: delegate, batchBytes: .max)
            await engine.add(records.keys.sorted().map { .saveRecord(SyncRecordID(zoneID: zone, recordName: $0)) })
            await #expect(throws: CloudError.self) { try await engine.sendChanges() }
            #expect(delegate.failed == ["huge": .limitExceeded], "\(delegate.failed)")
            #expect(await engine.state.pendingRecordZoneChanges.isEmpty)
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(server.keys.filter { $0.contains("/Bulk/") }.count == 310)
            #expect(SyncEngineSendTests.paired(delegate.events))
        }
    }

    @Test("a request-level failure leaves the changes pending; the next send delivers them; every will… gets its did…")
    func requestFailureKeepsChanges() async throws {
        try await Journal.run { journal in
            let zone = ZoneID(zoneName: "Kept", ownerRecordName: journal.userRecordName("alice"))
            _ = try await journal.container(as: "alice").privateCloudDatabase.modifyZones(saving: [zone])
            let records = Dictionary(uniqueKeysWithValues: (0..<5).map { ("r\($0)", Record(recordName: "r\($0)", recordType: "Note", fields: ["n": .int64(Int64($0))])) })
            // The delegate's mirror knows each record's type (tombstones carry none).
            let delegate = Recorder(records: records, types: records.mapValues { $0.recordType ?? "" })
            var credentials = journal.account("alice").credentials
            credentials.webAuthToken = "not-a-token"
            let failing = SyncEngineSendTests.engine(journal, credentials: credentials, delegate: delegate)
            await failing.add(records.keys.sorted().map { .saveRecord(SyncRecordID(zoneID: zone, recordName: $0)) })
            await #expect(throws: CloudError.self) { try await failing.sendChanges() }
            let kept = await failing.state
            #expect(kept.pendingRecordZoneChanges.count == 5, "nothing was answered, so everything stays pending")
            #expect(delegate.events.first == "willSendChanges" && delegate.events.last == "didSendChanges")
            #expect(delegate.events.contains("sentRecordZoneChanges"))

            // The same state, signed in properly: the next send delivers every change.
            let working = SyncEngineSendTests.engine(journal, credentials: journal.account("alice").credentials, delegate: delegate, state: kept)
            try await working.sendChanges()
            #expect(await working.state.pendingRecordZoneChanges.isEmpty)
            let server = try await journal.serverSnapshot(as: "alice", scope: .private)
            #expect(server.keys.filter { $0.contains("/Kept/") }.count == 5)
            #expect(SyncEngineSendTests.paired(delegate.events))

            // A deletion fetched later carries the record's type.
            _ = try await journal.container(as: "alice").privateCloudDatabase.modify(
                [RecordOperation(.forceDelete, Record(recordName: "r0"))], in: zone
            )
            try await working.fetchChanges()
            #expect(delegate.deletedTypes["r0"] == "Note")
        }
    }
}
