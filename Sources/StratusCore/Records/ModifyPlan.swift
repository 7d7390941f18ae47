import StratusModel
import StratusStore

/// The decisions of one records/modify, apart from the reads and the batch that feed and follow
/// them: the names the operations address, whether the batch is atomic, the items an atomic
/// batch fails before the store is touched, the writes to send, and each item's answer from the
/// store's outcomes. It does no I/O, so ``RecordService`` only loads what the plan needs and does
/// what it says, and the rules are tested without a store (as `ZoneBatchEngine` is for a batch).
struct ModifyPlan {
    /// The request's operations, in order.
    let operations: [RecordOperation]
    /// The record each operation addresses, in order (see ``names(of:)``).
    let names: [String]
    /// Whether one failed item fails every item and writes nothing (see ``isAtomic(requested:isDefaultZone:)``).
    let atomic: Bool
    /// Each operation planned, in order: a write for the batch, its error, or its answer.
    private(set) var items: [OperationPlanner.Plan]

    /// A plan of `items`, one per operation of `operations` addressing `names`, atomic as
    /// `requestedAtomic` (the request's `atomic`) and the zone allow.
    init(operations: [RecordOperation], names: [String], items: [OperationPlanner.Plan], requestedAtomic: Bool?, isDefaultZone: Bool) {
        self.operations = operations
        self.names = names
        self.atomic = Self.isAtomic(requested: requestedAtomic, isDefaultZone: isDefaultZone)
        self.items = items
    }

    // MARK: - Before the plan

    /// The record names the operations address (generated for creates without one).
    /// - Throws: ``CoreError`` `BAD_REQUEST` when two operations address one record.
    static func names(of operations: [RecordOperation]) throws(CoreError) -> [String] {
        let names = OperationPlanner.names(of: operations)
        if let duplicate = firstDuplicate(names) {
            throw CoreError.badRequest("more than one operation for record '\(duplicate)'")
        }
        return names
    }

    /// The first name that comes a second time, if any.
    static func firstDuplicate(_ names: [String]) -> String? {
        var seen = Set<String>()
        return names.first { !seen.insert($0).inserted }
    }

    /// Custom zones commit atomically unless the request asks otherwise; the default zone never.
    static func isAtomic(requested: Bool?, isDefaultZone: Bool) -> Bool {
        (requested ?? true) && !isDefaultZone
    }

    // MARK: - Transforms

    /// Checks each write's assets against `receipts` (see ``AssetReceipts``): a write with a
    /// refused asset becomes its `BAD_REQUEST`, a write that passes carries its checked values.
    mutating func checkAssets(against receipts: AssetReceipts) {
        items = zip(items, names).map { plan, name in
            guard case .write(let write, let desiredKeys) = plan else { return plan }
            switch receipts.check(write) {
            case .success(let checked): return .write(checked, desiredKeys: desiredKeys)
            case .failure(let refusal):
                return .failure(RecordError(recordName: name, serverErrorCode: .badRequest, reason: refusal.reason, uuid: ErrorUUID.make()))
            }
        }
    }

    /// Injects an item fault: the writes of its record type (every write, when it names none)
    /// fail with its code. The type is the one the operation gives, not one read from the store.
    mutating func inject(_ fault: ItemFault) {
        items = zip(items, zip(operations, names)).map { plan, item in
            guard case .write = plan, fault.recordType == nil || item.0.record.recordType == fault.recordType else { return plan }
            return .failure(RecordError(
                recordName: item.1, serverErrorCode: fault.code, reason: FiredFault.reason(fault.faultID), uuid: ErrorUUID.make(),
                retryAfter: fault.code == .throttled || fault.code == .tryAgainLater ? 1 : nil
            ))
        }
    }

    // MARK: - The batch

    /// When the batch is atomic and an item already failed, every item's answer: its own
    /// error, the others `ATOMIC_ERROR`; nothing is written. `nil` when the batch goes to the
    /// store. The caller still answers `ZONE_NOT_FOUND` when the zone is missing.
    var atomicFailure: [RecordResult]? {
        guard atomic, items.contains(where: { if case .failure = $0 { true } else { false } }) else { return nil }
        return zip(items, names).map { plan, name in
            if case .failure(let error) = plan { return .failure(error) }
            return .failure(RecordErrors.atomic(name))
        }
    }

    /// The writes for the store's batch, in the operations' order.
    var writes: [RecordWrite] {
        items.compactMap { plan -> RecordWrite? in
            guard case .write(let write, _) = plan else { return nil }
            return write
        }
    }

    /// Whether the batch's new schema fields are learned: some write did not fail.
    static func schemaLearns(from outcomes: [WriteOutcome]) -> Bool {
        outcomes.contains { if case .failed = $0 { false } else { true } }
    }

    /// Each item's answer: planned errors and answers as they are, and each write's outcome (the
    /// writes' outcomes in order) mapped with `mapper` and `shares`. A write with no outcome
    /// (none was given) is `ATOMIC_ERROR`.
    func results(of outcomes: [WriteOutcome], mapper: RecordMapper, shares: ShareRenderer?) -> [RecordResult] {
        var remaining = outcomes.makeIterator()
        return zip(items, names).map { plan, name -> RecordResult in
            switch plan {
            case .failure(let error): return .failure(error)
            case .answered(let result): return result
            case .write(_, let desiredKeys):
                guard let outcome = remaining.next() else { return .failure(RecordErrors.atomic(name)) }
                return RecordErrors.result(of: outcome, name: name, desiredKeys: desiredKeys, mapper: mapper, shares: shares)
            }
        }
    }
}
