import StratusModel
import StratusStore

/// records/modify in the shared database: a participant deleting a share leaves it; every
/// other write passes ``SharedWritePolicy`` before the batch.
extension RecordService {
    func sharedPlans(
        _ plans: [OperationPlanner.Plan], request: ModifyRecordsRequest, names: [String], view: SharedZoneView, user: String
    ) async throws(StoreError) -> [OperationPlanner.Plan] {
        var plans = plans
        for (index, (operation, name)) in zip(request.operations, names).enumerated()
        where operation.operationType.isDelete && view.grant(ofShare: name) != nil {
            _ = try await store.leave(share: name, in: view.key, user: user, timestamp: configuration.now())
            plans[index] = .answered(.success(RecordMapper(zoneID: view.zoneID).deleted(name)))
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
