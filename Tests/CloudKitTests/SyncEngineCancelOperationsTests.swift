import CloudKit
import Foundation
import Testing

/// `CKSyncEngine.cancelOperations()` cancels "any currently executing or pending sync
/// operations", Apple's words: a fetch or send the app started ends with `operationCancelled`
/// (here both wait on a server told to answer 20 s late), and what was not sent stays pending.
@Suite struct SyncEngineCancelOperationsTests {
    @Test func aFetchTheAppStartedEndsWithOperationCancelled() async throws {
        try await DevServer.with { server in
            let device = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let engine = await device.engine
            #expect(try await server.stratus(["faults", "add", "--endpoint", "changes/database", "--latency-ms", "20000"]) == 0)
            let fetch = Task { try await engine.fetchChanges() }
            #expect(await eventually { await device.milestones.contains("willFetchChanges") })

            await engine.cancelOperations()
            let error = await #expect(throws: CKError.self) { try await fetch.value }
            #expect(error?.code == .operationCancelled)
        }
    }

    @Test func aSendTheAppStartedEndsWithOperationCancelledAndItsChangesStayPending() async throws {
        try await DevServer.with { server in
            let device = NoteDevice(try server.container("alice").privateCloudDatabase, zoneID: notesZone)
            let engine = await device.engine
            #expect(try await server.stratus(["faults", "add", "--endpoint", "records/modify", "--latency-ms", "20000"]) == 0)
            await device.write("groceries", "milk")
            let send = Task { try await engine.sendChanges() }
            #expect(await eventually { await device.milestones.contains("willSendChanges") })

            await engine.cancelOperations()
            let error = await #expect(throws: CKError.self) { try await send.value }
            #expect(error?.code == .operationCancelled)
            #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(CKRecord.ID(recordName: "groceries", zoneID: notesZone))])

            #expect(try await server.stratus(["faults", "clear"]) == 0)
            try await engine.sendChanges()
            #expect(engine.state.pendingRecordZoneChanges.isEmpty)
        }
    }
}
private let notesZone = CKRecordZone.ID(zoneName: "Notes")
