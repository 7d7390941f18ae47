import Foundation
import StratusCloudKitTesting
import Testing

@testable import StratusCloudKit

/// Batches the server refuses as a whole or in part: halved when too large (no change leaves the
/// list for a size), an atomic zone all or nothing, a full account refused for good.
@Suite(.timeLimit(.minutes(1))) struct EngineBatchTests {
    /// The delegate's one batch of 400 (CloudKit's most an operation) goes in one request; the
    /// server finds it too large, so it goes again as two of 200.
    @Test func aBatchTheServerFindsTooLargeIsSplitInTwoAndEveryRecordLands() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        harness.setBatchStyle(.everythingAtOnce(atomicByZone: false))
        let engine = CKSyncEngine(harness.configuration())
        let names = (0..<400).map { "note-\($0)" }
        harness.write(names, on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.limitExceeded, "the request is too large"))
        try await engine.sendChanges()

        #expect(harness.fake.requests(of: .modifyRecords) == [
            .modifyRecords(saving: names, deleting: [], atomically: false),
            .modifyRecords(saving: Array(names[..<200]), deleting: [], atomically: false),
            .modifyRecords(saving: Array(names[200...]), deleting: [], atomically: false),
        ])
        #expect(harness.fake.records(in: notesZone).count == 400)
        #expect(harness.failedSaves.isEmpty)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    @Test func aHalfStillTooLargeIsHalvedAgain() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let names = (0..<8).map { "note-\($0)" }
        harness.write(names, on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.limitExceeded, "the request is too large"), times: 2)
        try await engine.sendChanges()

        let sizes = harness.fake.requests(of: .modifyRecords).map { request -> Int in
            guard case .modifyRecords(let saving, _, _) = request else { return 0 }
            return saving.count
        }
        #expect(sizes == [8, 4, 2, 2, 4])
        #expect(harness.fake.records(in: notesZone).map(\.recordID.recordName) == names)
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// One change too large for any request cannot be split: it is reported `limitExceeded`
    /// (for the app to shrink) and stays pending — no change leaves the list for a size — set
    /// aside, not resent unchanged, until the app adds it again.
    @Test func aSingleChangeTooLargeIsReportedAndStaysPending() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let huge = harness.write("huge", String(repeating: "h", count: 1_000), on: engine)
        harness.fake.failNext(.modifyRecords, with: CKError(.limitExceeded, "the record is too large"))
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }

        #expect(error.code == .partialFailure)
        #expect(harness.failedSaveCodes == ["huge": .limitExceeded])
        #expect(harness.fake.requests(of: .modifyRecords).count == 1, "nothing to split")
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(huge)])

        try await engine.sendChanges()
        #expect(harness.fake.requests(of: .modifyRecords).count == 1, "set aside: not resent unchanged")
        harness.write("huge", "smaller", on: engine)
        try await engine.sendChanges()
        #expect(harness.fake.record(named: "huge", in: notesZone)?["text"] as? String == "smaller")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// A record the server refuses on its own as too large is reported and stays pending, set
    /// aside: the zone's other changes (in an atomic batch, failed with it once) go on the next
    /// send without it, no retry resends it unchanged, and once the app adds it again (smaller)
    /// it goes too.
    @Test func aRecordRefusedAsTooLargeIsSetAsideAndHoldsBackNoOtherChange() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        harness.setBatchStyle(.everythingAtOnce(atomicByZone: true))
        let engine = CKSyncEngine(harness.configuration())
        let ids = harness.write(["big", "small"], on: engine)
        harness.fake.failRecord(named: "big", with: CKError(.limitExceeded, "the record is larger than the server takes"))
        _ = try? await engine.sendChanges()
        #expect(harness.failedSaveCodes == ["big": .limitExceeded, "small": .batchRequestFailed])

        _ = try? await engine.sendChanges()
        #expect(harness.fake.record(named: "small", in: notesZone) != nil, "the atomic zone's other change went")
        #expect(harness.fake.requests(of: .modifyRecords).count == 2)
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(ids[0])], "kept: no change leaves the list for a size")
        let relaunched = CKSyncEngine(harness.configuration(state: harness.lastState))
        try await relaunched.sendChanges()
        #expect(harness.fake.requests(of: .modifyRecords).count == 2, "set aside across a relaunch too")

        harness.write("big", "smaller now", on: relaunched)
        try await relaunched.sendChanges()
        #expect(harness.fake.record(named: "big", in: notesZone)?["text"] as? String == "smaller now")
        #expect(relaunched.state.pendingRecordZoneChanges.isEmpty)
    }

    /// Zone changes the server finds too large go again in halves: every zone is made, and none
    /// leaves the list for a size (the driver once overruled its core here and sent nothing).
    @Test func zoneChangesTheServerFindsTooLargeAreSplitAndEveryZoneIsMade() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        let zones = ["A", "B", "C", "D"].map { CKRecordZone.ID(zoneName: $0) }
        engine.state.add(pendingDatabaseChanges: zones.map { .saveZone(CKRecordZone(zoneID: $0)) })
        harness.fake.failNext(.modifyRecordZones, with: CKError(.limitExceeded, "the request is too large"))
        try await engine.sendChanges()

        #expect(harness.fake.requests(of: .modifyRecordZones) == [
            .modifyRecordZones(saving: ["A", "B", "C", "D"], deleting: []),
            .modifyRecordZones(saving: ["A", "B"], deleting: []),
            .modifyRecordZones(saving: ["C", "D"], deleting: []),
        ])
        #expect(zones.allSatisfy(harness.fake.hasZone))
        #expect(engine.state.pendingDatabaseChanges.isEmpty)
    }

    /// One zone change refused as too large is reported and stays pending (a zone is no size the
    /// app makes smaller), so the next send makes it.
    @Test func aSingleZoneChangeRefusedAsTooLargeIsReportedAndStaysPending() async throws {
        let harness = EngineHarness()
        let engine = CKSyncEngine(harness.configuration())
        engine.state.add(pendingDatabaseChanges: [.saveZone(CKRecordZone(zoneID: notesZone))])
        harness.fake.failNext(.modifyRecordZones, with: CKError(.limitExceeded, "the request is too large"))
        _ = try? await engine.sendChanges()

        #expect(harness.sentZones.flatMap(\.failedZoneSaves).map(\.error.code) == [.limitExceeded])
        #expect(engine.state.pendingDatabaseChanges == [.saveZone(CKRecordZone(zoneID: notesZone))])
        try await engine.sendChanges()
        #expect(harness.fake.hasZone(notesZone))
        #expect(engine.state.pendingDatabaseChanges.isEmpty)
    }

    /// An atomic zone batch with one refused record: the others fail `batchRequestFailed`,
    /// nothing is saved, and they stay pending (the refused one is answered for good).
    @Test func anAtomicZoneBatchWithOneRefusalFailsTheOthersWhichStayPending() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        harness.setBatchStyle(.everythingAtOnce(atomicByZone: true))
        let engine = CKSyncEngine(harness.configuration())
        let ids = harness.write(["a", "b", "c"], on: engine)
        harness.fake.failRecord(named: "b", with: CKError(.invalidArguments, "a field the schema refuses"))
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }

        #expect(error.code == .partialFailure)
        #expect(harness.fake.requests(of: .modifyRecords) == [.modifyRecords(saving: ["a", "b", "c"], deleting: [], atomically: true)])
        #expect(harness.failedSaveCodes == ["a": .batchRequestFailed, "b": .invalidArguments, "c": .batchRequestFailed])
        #expect(harness.fake.records(in: notesZone).isEmpty, "an atomic zone takes all or nothing")
        #expect(engine.state.pendingRecordZoneChanges == [.saveRecord(ids[0]), .saveRecord(ids[2])])

        try await engine.sendChanges()
        #expect(harness.fake.records(in: notesZone).map(\.recordID.recordName) == ["a", "c"])
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }

    /// `quotaExceeded`: Apple's engine does not retry it — reported once, out of the list; the
    /// app adds it again once the user made room.
    @Test func aSaveRefusedForQuotaIsReportedOnceAndLeavesTheList() async throws {
        let harness = EngineHarness()
        harness.fake.serverSaveZone(notesZone)
        let engine = CKSyncEngine(harness.configuration())
        let big = harness.write("big", "a note for a full account", on: engine)
        harness.fake.failRecord(named: "big", with: CKError(.quotaExceeded, "the account's storage is full"))
        let error = try await #require(throws: CKError.self) { try await engine.sendChanges() }

        #expect(error.code == .partialFailure)
        #expect(harness.failedSaveCodes == ["big": .quotaExceeded])
        #expect(!engine.state.pendingRecordZoneChanges.contains(.saveRecord(big)), "refused for good: it leaves the list")

        harness.resetLog()
        try await engine.sendChanges()
        #expect(harness.failedSaves.isEmpty, "reported once")
        #expect(harness.fake.requests(of: .modifyRecords).count == 1)

        engine.state.add(pendingRecordZoneChanges: [.saveRecord(big)])
        try await engine.sendChanges()
        #expect(harness.fake.record(named: "big", in: notesZone)?["text"] as? String == "a note for a full account")
        #expect(engine.state.pendingRecordZoneChanges.isEmpty)
    }
}
