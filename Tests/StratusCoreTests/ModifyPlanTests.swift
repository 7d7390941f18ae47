import StratusModel
import StratusStore
import Testing

@testable import StratusCore

/// The decisions of a records/modify, with no server or store: one operation per record, which
/// batches are atomic, an atomic batch failed before the store is touched, the writes sent, the
/// store's outcomes mapped back to the items in order, when the schema learns, and the item
/// faults and asset receipts that turn writes into errors.
@Suite struct ModifyPlanTests {
    static let zoneID = ZoneID(zoneName: "Z")

    /// A create of a `Note` (or `recordType`) named `name`, with a title.
    private static func create(_ name: String, recordType: String? = "Note", fields: [String: Field]? = nil) -> RecordOperation {
        RecordOperation(.create, Record(recordName: name, recordType: recordType, fields: fields ?? ["title": .string(name)]))
    }

    /// A create the planner refuses (`create requires a recordType`).
    private static func untyped(_ name: String) -> RecordOperation {
        create(name, recordType: nil)
    }

    /// The operations named and planned by ``OperationPlanner`` (learning new types), as a plan.
    private func plan(_ operations: [RecordOperation], atomic: Bool? = nil, isDefaultZone: Bool = false) throws -> ModifyPlan {
        let names = try ModifyPlan.names(of: operations)
        var planner = OperationPlanner(schema: ["Note": ["title": .string]], existingTypes: [:], mayLearn: true)
        let items = zip(operations, names).map { operation, name in planner.plan(operation, name: name, requestDesiredKeys: nil) }
        return ModifyPlan(operations: operations, names: names, items: items, requestedAtomic: atomic, isDefaultZone: isDefaultZone)
    }

    /// A record as the store answers a save of it, at change sequence `seq`.
    private static func stored(_ name: String, seq: Int64 = 7) -> StoredRecord {
        let stamp = RecordStamp(timestamp: 1_000, userRecordName: "_alice")
        return StoredRecord(name: name, type: "Note", fields: ["title": .string(name)], created: stamp, modified: stamp, seq: seq)
    }

    /// Every answer's error (the test fails on a record).
    private func errors(_ results: [RecordResult], sourceLocation: SourceLocation = #_sourceLocation) throws -> [RecordError] {
        try results.map { result in try #require(result.error, "answered \(result), not an error", sourceLocation: sourceLocation) }
    }

    @Test func twoOperationsOnOneRecordAreRefused() throws {
        #expect(throws: CoreError.badRequest("more than one operation for record 'a'")) {
            try ModifyPlan.names(of: [Self.create("a"), Self.create("b"), Self.create("a")])
        }
        #expect(try ModifyPlan.names(of: [Self.create("a"), Self.create("b")]) == ["a", "b"])
        #expect(ModifyPlan.firstDuplicate(["a", "b", "b", "a"]) == "b")
        #expect(ModifyPlan.firstDuplicate(["a", "b"]) == nil)
    }

    @Test func theDefaultZoneIsNeverAtomic() throws {
        #expect(ModifyPlan.isAtomic(requested: nil, isDefaultZone: false))
        #expect(ModifyPlan.isAtomic(requested: true, isDefaultZone: false))
        #expect(!ModifyPlan.isAtomic(requested: false, isDefaultZone: false))
        #expect(!ModifyPlan.isAtomic(requested: nil, isDefaultZone: true))
        #expect(!ModifyPlan.isAtomic(requested: true, isDefaultZone: true))
        let plan = try plan([Self.create("a"), Self.untyped("b")], atomic: true, isDefaultZone: true)
        #expect(!plan.atomic)
        #expect(plan.atomicFailure == nil)
    }

    @Test func oneFailureInAnAtomicBatchFailsEveryOtherItemWithAtomicError() throws {
        let plan = try plan([Self.create("a"), Self.untyped("b"), Self.create("c")])
        #expect(plan.atomic)
        let failed = try errors(try #require(plan.atomicFailure))
        #expect(failed.map(\.recordName) == ["a", "b", "c"])
        #expect(failed.map(\.serverErrorCode) == [.atomicError, .badRequest, .atomicError])
        #expect(failed[1].reason == "create requires a recordType")
        #expect(failed[0].reason == RecordErrors.atomic("a").reason)
    }

    @Test func anAtomicBatchWithoutAFailureGoesToTheStore() throws {
        let plan = try plan([Self.create("a"), Self.create("b")])
        #expect(plan.atomic && plan.atomicFailure == nil)
        #expect(plan.writes.map(\.name) == ["a", "b"])
    }

    @Test func aNonAtomicBatchKeepsTheOtherWritesInOrder() throws {
        let plan = try plan([Self.create("a"), Self.untyped("b"), Self.create("c")], atomic: false)
        #expect(!plan.atomic)
        #expect(plan.atomicFailure == nil)
        #expect(plan.writes.map(\.name) == ["a", "c"])
    }

    @Test func outcomesMapBackInOrderPastAnsweredAndFailedItems() throws {
        let operations = [Self.create("a"), Self.create("b"), Self.create("c"), RecordOperation(.forceDelete, Record(recordName: "d"))]
        let items: [OperationPlanner.Plan] = [
            .write(RecordWrite(name: "a", action: .create, precondition: .none, recordType: "Note"), desiredKeys: []),
            .failure(RecordError(recordName: "b", serverErrorCode: .badRequest, reason: "refused")),
            .answered(.success(Record(recordName: "c"))),
            .write(RecordWrite(name: "d", action: .delete, precondition: .none, recordType: nil), desiredKeys: nil),
        ]
        let plan = ModifyPlan(operations: operations, names: ["a", "b", "c", "d"], items: items, requestedAtomic: false, isDefaultZone: false)
        let results = plan.results(of: [.saved(Self.stored("a")), .deleted(name: "d")], mapper: RecordMapper(zoneID: Self.zoneID), shares: nil)
        try #require(results.count == 4)
        let saved = try #require(results[0].record)
        #expect(saved.recordName == "a" && saved.recordChangeTag == StoredRecord.changeTag(for: 7))
        #expect(saved.fields == [:], "the write's desiredKeys ([]) ask for no user fields")
        #expect(results[1].error?.reason == "refused")
        #expect(results[2] == .success(Record(recordName: "c")))
        let deleted = try #require(results[3].record)
        #expect(deleted.recordName == "d" && deleted.deleted == true)
    }

    @Test func aStoreFailureIsTheItemsError() throws {
        let plan = try plan([Self.create("a"), Self.create("b")], atomic: false)
        let results = plan.results(of: [.failed(.notFound), .failed(.atomicAborted)], mapper: RecordMapper(zoneID: Self.zoneID), shares: nil)
        let failed = try errors(results)
        #expect(failed.map(\.serverErrorCode) == [.notFound, .atomicError])
        #expect(failed.map(\.recordName) == ["a", "b"])
    }

    @Test func aWriteWithoutAnOutcomeIsAnAtomicError() throws {
        let plan = try plan([Self.create("a"), Self.create("b")], atomic: false)
        let results = plan.results(of: [.saved(Self.stored("a"))], mapper: RecordMapper(zoneID: Self.zoneID), shares: nil)
        #expect(results[0].record?.recordName == "a")
        let missing = try #require(results[1].error)
        #expect(missing.serverErrorCode == .atomicError && missing.recordName == "b")
    }

    @Test func theSchemaLearnsOnlyWhenAWriteDidNotFail() {
        #expect(!ModifyPlan.schemaLearns(from: []))
        #expect(!ModifyPlan.schemaLearns(from: [.failed(.notFound), .failed(.atomicAborted)]))
        #expect(ModifyPlan.schemaLearns(from: [.failed(.notFound), .deleted(name: "d")]))
        #expect(ModifyPlan.schemaLearns(from: [.saved(Self.stored("a"))]))
    }

    @Test func anItemFaultHitsOnlyTheWritesOfItsRecordType() throws {
        var plan = try plan([Self.create("a"), Self.create("p", recordType: "Photo"), Self.untyped("b")], atomic: false)
        plan.inject(ItemFault(faultID: "f1", code: .throttled, recordType: "Photo"))
        #expect(plan.items[0].planned?.write.name == "a")
        let hit = try #require(plan.items[1].refusal)
        #expect(hit.recordName == "p" && hit.serverErrorCode == .throttled && hit.retryAfter == 1)
        #expect(hit.reason == FiredFault.reason("f1"))
        #expect(plan.items[2].refusal?.reason == "create requires a recordType", "a planned error stays its own")
        #expect(plan.writes.map(\.name) == ["a"])
    }

    @Test func anItemFaultWithoutARecordTypeHitsEveryWrite() throws {
        var plan = try plan([Self.create("a"), Self.create("p", recordType: "Photo")], atomic: false)
        plan.inject(ItemFault(faultID: "f2", code: .internalError, recordType: nil))
        let hits = plan.items.compactMap(\.refusal)
        #expect(hits.map(\.serverErrorCode) == [.internalError, .internalError])
        #expect(hits.allSatisfy { $0.retryAfter == nil })
        #expect(plan.writes.isEmpty)
    }

    @Test func aWriteWhoseAssetHasNoReceiptBecomesItsBadRequest() throws {
        let receipts = AssetReceipts(
            signer: AssetSigner(key: Array(repeating: 7, count: 32)), owner: "_alice", container: "iCloud.test", environment: .development, now: 0
        )
        let image: [String: Field] = ["image": Field(.asset(AssetValue()), type: .asset)]
        var plan = try plan([Self.create("a"), Self.create("p", recordType: "Photo", fields: image)], atomic: false)
        plan.checkAssets(against: receipts)
        #expect(plan.items[0].planned?.write.name == "a", "a write without assets passes")
        let refused = try #require(plan.items[1].refusal)
        #expect(refused.recordName == "p" && refused.serverErrorCode == .badRequest)
        #expect(refused.reason == "the asset of field 'image' has neither a receipt nor a fileChecksum")
    }
}
