import StratusModel
import StratusStore

/// records/modify in the shared database: a participant deleting a share leaves it (a write of
/// the batch like any other: its change tag is checked, and an atomic batch leaves only if every
/// write succeeds); every other write passes ``SharedWritePolicy`` before the batch.
extension RecordService {
    func sharedPlans(
        _ plans: [OperationPlanner.Plan], request: ModifyRecordsRequest, names: [String], view: SharedZoneView, user: String
    ) async throws(StoreError) -> [OperationPlanner.Plan] {
        var plans = plans
        for (index, (operation, name)) in zip(request.operations, names).enumerated()
        where operation.operationType.isDelete && view.grant(ofShare: name) != nil {
            guard case .write(var write, let desiredKeys) = plans[index] else { continue }
            write.action = .leave
            plans[index] = .write(write, desiredKeys: desiredKeys)
        }
        var hidden = Set<String>()
        if let visible = view.visibleNames {
            let unseen = names.filter { !visible.contains($0) }
            if !unseen.isEmpty {
                hidden = Set(try await store.records(named: unseen, in: view.key).compactMap { $0?.name })
            }
        }
        return SharedWritePolicy(view: view, hidden: hidden).check(plans, names: names)
    }
}
